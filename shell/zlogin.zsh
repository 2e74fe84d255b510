# Terminal Shepherd: the user's .zlogin (login shells); ZDOTDIR stays the user's from here on.
ZDOTDIR=$__tshep_user_zdotdir
if [[ -r "$ZDOTDIR/.zlogin" ]]; then . "$ZDOTDIR/.zlogin"; fi
