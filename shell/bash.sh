# Terminal Shepherd shell integration for bash: the OSC 633 sequences VS Code reads (A, B, C,
# D;exit code, P;Cwd), for terminals where VS Code's own integration does not activate.
# Loaded with `bash --init-file <this file>`: bash has already read /etc/bash.bashrc; the user's
# ~/.bashrc comes first, then our hooks are chained around theirs (PROMPT_COMMAND, PS0, PS1).
if [ -n "${__tshep_loaded-}" ]; then return 0 2>/dev/null; fi
__tshep_loaded=1
if [ -r "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
# Agent commands stay out of the user's history (VS Code's chat.tools.terminal.preventShellHistory,
# the variable its own scripts read): they are typed with a leading space. After .bashrc, which
# may set HISTCONTROL itself.
if [ "${VSCODE_PREVENT_SHELL_HISTORY-}" = "1" ]; then
	case ":${HISTCONTROL-}:" in *:ignorespace:* | *:ignoreboth:*) ;; *) HISTCONTROL="${HISTCONTROL:+$HISTCONTROL:}ignorespace" ;; esac
	unset VSCODE_PREVENT_SHELL_HISTORY
fi

# Sets __tshep_escaped to $1 escaped for an OSC 633 value: \ as \\, ; and controls as \xHH.
__tshep_esc() {
	local s=$1 out= c i
	case $s in
	*[\\\;[:cntrl:]]*) ;;
	*) __tshep_escaped=$s; return 0 ;;
	esac
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in
		\\) out+='\\' ;;
		\;) out+='\x3b' ;;
		[[:cntrl:]]) printf -v c '\\x%02x' "'$c"; out+=$c ;;
		*) out+=$c ;;
		esac
	done
	__tshep_escaped=$out
}

__tshep_status=0
__tshep_ran=
# First in PROMPT_COMMAND: the command's status is still in $?, and is handed on unchanged.
__tshep_precmd() {
	__tshep_status=$?
	return $__tshep_status
}
# Last in PROMPT_COMMAND: D only now, once the user's hooks are done, so "the command ended" also
# means "the shell is back at its prompt"; a hook may have set PS1 or PS0 afresh.
__tshep_postcmd() {
	if [ -n "$__tshep_ran" ]; then
		builtin printf '\e]633;D;%s\a' "$__tshep_status"
	else
		builtin printf '\e]633;D\a'
	fi
	__tshep_ran=
	__tshep_esc "$PWD"
	builtin printf '\e]633;P;Cwd=%s\a' "$__tshep_escaped"
	case $PS1 in *'633;A'*) ;; *) PS1='\[\e]633;A\a\]'"$PS1"'\[\e]633;B\a\]' ;; esac
	if [ -n "$__tshep_ps0" ]; then
		case $PS0 in *'633;C'*) ;; *) PS0="$PS0$__tshep_ps0" ;; esac
	fi
	__tshep_armed=1
	return $__tshep_status
}

# C: PS0 is printed once a command line was read, before it runs (bash 4.4+, never for an empty
# line); the arithmetic in the subscript records in this shell that a command ran. Older bash:
# the DEBUG trap, once per command line.
__tshep_ps0=
if ((BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4))); then
	__tshep_ps0='\e]633;C\a${__tshep_none[$((__tshep_ran=1))]-}'
	PS0="${PS0-}$__tshep_ps0"
else
	__tshep_armed=
	__tshep_debug() {
		if [ -n "$__tshep_armed" ] && [ "$BASH_COMMAND" != __tshep_precmd ]; then
			__tshep_armed=
			__tshep_ran=1
			builtin printf '\e]633;C\a'
		fi
	}
	if [ -z "$(trap -p DEBUG)" ]; then trap '__tshep_debug' DEBUG; fi
fi

if ((BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1))); then
	PROMPT_COMMAND=(__tshep_precmd "${PROMPT_COMMAND[@]}" __tshep_postcmd)
else
	__tshep_user_pc=${PROMPT_COMMAND-}
	while :; do
		case $__tshep_user_pc in
		*[\;[:space:]]) __tshep_user_pc=${__tshep_user_pc%?} ;;
		*) break ;;
		esac
	done
	PROMPT_COMMAND="__tshep_precmd${__tshep_user_pc:+; $__tshep_user_pc}; __tshep_postcmd"
	unset __tshep_user_pc
fi
