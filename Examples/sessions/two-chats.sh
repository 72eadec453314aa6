#!/bin/sh
# Two chats, two drafts: each comes back in its own chat; quitting forgets the one left.
# usage: two-chats.sh DRAFTLINE DATA_DIR
printf '%b' \
'/open alice\n'\
'for alice\030o\n'\
'bob\n'\
'for bob\030b\n'\
'/drafts\n'\
'!\n'\
'/open bob\n'\
'/quit\n' | "$1" --data-dir "$2" --trace 2>&1 | sed 's/age [0-9]*s$/age Ns/'
