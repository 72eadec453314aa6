#!/bin/sh
# A chat with two sides on one pipe: bob (a demo peer) answers; /wait lets his answers
# in at fixed points, so the transcript is the same on every run. One answer arrives
# while the user is on bob's profile with a half-typed line kept as a draft.
# usage: demo-peer.sh DRAFTLINE DATA_DIR
printf '%b' \
'/open bob\n'\
'hello, is anyone there?\n'\
'/wait\n'\
'one more thing\n'\
'half a line\030p\n'\
'/wait\n'\
'/chats\n'\
'/back\n'\
'/expect draft privateMessage_bob "half a line"\n'\
'/wait 1 0.5\n'\
'/quit\n' | SOURCE_DATE_EPOCH=1764460800 "$1" --data-dir "$2" --demo --demo-delay 0.2 2>&1
