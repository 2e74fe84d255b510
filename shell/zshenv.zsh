# Terminal Shepherd shell integration for zsh (installed as $ZDOTDIR/.zshenv, ZDOTDIR pointing at
# Terminal Shepherd's folder). Reads the user's .zshenv from their own ZDOTDIR (or $HOME), then
# keeps ZDOTDIR on our folder so zsh reads our .zprofile/.zshrc/.zlogin, which chain to theirs.
__tshep_zdotdir=$ZDOTDIR
if [[ -n "${TSHEP_USER_ZDOTDIR-}" ]]; then ZDOTDIR=$TSHEP_USER_ZDOTDIR; else ZDOTDIR=$HOME; fi
unset TSHEP_USER_ZDOTDIR
if [[ -r "$ZDOTDIR/.zshenv" ]]; then . "$ZDOTDIR/.zshenv"; fi
__tshep_user_zdotdir=$ZDOTDIR
ZDOTDIR=$__tshep_zdotdir
