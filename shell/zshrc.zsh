# Terminal Shepherd shell integration for zsh: the OSC 633 sequences VS Code reads (A, B, C,
# D;exit code, E;command line, P;Cwd), for terminals where VS Code's own integration does not
# activate. The user's .zshrc comes first (plugins, themes, their precmd/preexec hooks); our
# hooks are added around theirs: the first precmd hook sees the command's status, the last one
# marks the prompt a theme may have just rebuilt.
ZDOTDIR=$__tshep_user_zdotdir
if [[ -r "$ZDOTDIR/.zshrc" ]]; then . "$ZDOTDIR/.zshrc"; fi
__tshep_user_zdotdir=$ZDOTDIR
# A login shell still reads .zlogin: ours, which hands ZDOTDIR back to the user.
if [[ -o login ]]; then ZDOTDIR=$__tshep_zdotdir; fi
# Agent commands (typed with a leading space) stay out of the user's history, as VS Code's
# chat.tools.terminal.preventShellHistory asks (the variable its own scripts read).
if [[ "${VSCODE_PREVENT_SHELL_HISTORY-}" == 1 ]]; then
	setopt HIST_IGNORE_SPACE
	unset VSCODE_PREVENT_SHELL_HISTORY
fi

# The end-of-line mark (an inverse %) would show in the output of a command that ends without a
# newline.
PROMPT_EOL_MARK=''
# zsh-autosuggestions' grey suggestion after the cursor looks like typed text to VS Code, which
# then clears the line with Ctrl+C before sending a command: no suggestions in managed terminals.
ZSH_AUTOSUGGEST_HISTORY_IGNORE='*'
ZSH_AUTOSUGGEST_COMPLETION_IGNORE='*'

__tshep_esc() {
	# Sets REPLY to $1 escaped for an OSC 633 value: \ as \\, ; and controls as \xHH.
	emulate -L zsh
	local s=$1 out= c
	if [[ $s != *[\\\;[:cntrl:]]* ]]; then REPLY=$s; return 0; fi
	for c in ${(s::)s}; do
		case $c in
		\\) out+='\\' ;;
		\;) out+='\x3b' ;;
		[[:cntrl:]]) out+=$(printf '\\x%02x' "'$c") ;;
		*) out+=$c ;;
		esac
	done
	REPLY=$out
}

typeset -g __tshep_ran= __tshep_status=0
# First precmd hook: the command's status is still in $?; it is handed on unchanged.
__tshep_precmd_first() {
	__tshep_status=$?
	# Stay first and last even when a plugin added hooks after us.
	if [[ ${precmd_functions[1]} != __tshep_precmd_first ]]; then
		precmd_functions=(__tshep_precmd_first ${precmd_functions:#__tshep_precmd_first})
	fi
	if [[ ${precmd_functions[-1]} != __tshep_precmd_last ]]; then
		precmd_functions=(${precmd_functions:#__tshep_precmd_last} __tshep_precmd_last)
	fi
	return $__tshep_status
}
# Last precmd hook: D only now, once the user's hooks (a theme building its prompt in forked
# subshells) are done, so "the command ended" also means "the shell is back at its prompt".
__tshep_precmd_last() {
	local REPLY
	if [[ -n $__tshep_ran ]]; then
		builtin printf '\e]633;D;%s\a' $__tshep_status
	else
		builtin printf '\e]633;D\a'
	fi
	__tshep_ran=
	__tshep_esc "$PWD"
	builtin printf '\e]633;P;Cwd=%s\a' "$REPLY"
	if [[ $PS1 != *'633;A'* ]]; then
		PS1=$'%{\e]633;A\a%}'"$PS1"$'%{\e]633;B\a%}'
	fi
	# A right prompt (themes put status and time there) is not typed text: VS Code would clear
	# the line with Ctrl+C before sending a command if it took it for input.
	if [[ -n $RPS1 && $RPS1 != *'633;H'* ]]; then
		RPS1=$'%{\e]633;H\a%}'"$RPS1"$'%{\e]633;I\a%}'
	fi
	return $__tshep_status
}
__tshep_preexec() {
	local REPLY
	__tshep_ran=1
	__tshep_esc "$1"
	builtin printf '\e]633;E;%s\a\e]633;C\a' "$REPLY"
}
typeset -ga precmd_functions preexec_functions
precmd_functions=(__tshep_precmd_first $precmd_functions __tshep_precmd_last)
preexec_functions=($preexec_functions __tshep_preexec)
