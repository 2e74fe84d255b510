# Terminal Shepherd: the user's .zprofile (login shells), read from their own ZDOTDIR.
ZDOTDIR=$__tshep_user_zdotdir
if [[ -r "$ZDOTDIR/.zprofile" ]]; then . "$ZDOTDIR/.zprofile"; fi
__tshep_user_zdotdir=$ZDOTDIR
ZDOTDIR=$__tshep_zdotdir
