#!/bin/sh
# A comment thread keeps its own draft, apart from the private chat with the same user.
# usage: comment-thread.sh DRAFTLINE DATA_DIR
printf '%b' \
'/open bob\n'\
'private words\030b\n'\
'/comment tweet 42 @bob\n'\
'a public reply\n'\
'/location 48.8584 2.2945 Tour Eiffel\n'\
'/comment tweet 4x2\n'\
'/open bob\n'\
'\n' | "$1" --data-dir "$2" 2>&1
