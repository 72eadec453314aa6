#!/bin/sh
# The original's story: start typing Bob's ID in alice's chat, look him up, come back,
# find the text waiting, finish it and send it.
# usage: draft-flow.sh DRAFTLINE DATA_DIR
printf '%b' \
'/open alice\n'\
'Bob'"'"'s ID is \030p\n'\
'/profile bob\n'\
'/back\n'\
'/back\n'\
'bob\n'\
'/chats\n' | "$1" --data-dir "$2" 2>&1
