# Terminal Shepherd shell integration for sh-family shells without a pre-execution hook (dash,
# ksh, mksh, busybox sh): loaded through $ENV, which an interactive shell reads at start.
# PS1 carries D;<exit code> of the last command, P;Cwd and the prompt marks A and B; C is printed
# by the command line Terminal Shepherd sends (`__tshep_c; eval '...'`), so a run still gets
# exact output and its exit code. The user's own $ENV file (handed over in TSHEP_USER_ENV) is
# read first.
if [ -z "${__tshep_loaded-}" ]; then
	__tshep_loaded=1
	if [ -n "${TSHEP_USER_ENV-}" ] && [ -r "${TSHEP_USER_ENV}" ]; then . "${TSHEP_USER_ENV}"; fi
	ENV=${TSHEP_USER_ENV-}
	unset TSHEP_USER_ENV
	__tshep_c() { printf '\033]633;C\007'; }
	# A line editor (ksh, mksh) redraws the prompt while a line is typed, which would print D again
	# and end the command before it ran: managed terminals type without one.
	# (dash has none, and `set +o` of an unknown option would end this script there.)
	if [ -n "${KSH_VERSION-}" ]; then
		set +o emacs
		set +o vi
		set +o gmacs 2>/dev/null || :
	fi
	# $? must be expanded before anything else in PS1 can change it.
	__tshep_e=$(printf '\033')
	__tshep_a=$(printf '\007')
	# mksh counts invisible characters in the prompt unless a leading "\1\r" declares \1 as the
	# delimiter of invisible runs.
	__tshep_i=
	case ${KSH_VERSION-} in *MIRBSD*) __tshep_i=$(printf '\001') ;; esac
	# P;Cwd the way VS Code reads it: it splits the sequence on ";" and a control character would
	# end it, so `\`, `;` and control characters go as \\, \x3b and \xNN. Only an odd directory
	# pays for the loop; the command substitution in PS1 is one fork per prompt.
	__tshep_cwd() {
		case $PWD in
		*[\\\;[:cntrl:]]*) ;;
		*) printf '%s' "$PWD"; return 0 ;;
		esac
		__tshep_rest=$PWD
		while [ -n "$__tshep_rest" ]; do
			__tshep_tail=${__tshep_rest#?}
			__tshep_ch=${__tshep_rest%"$__tshep_tail"}
			case $__tshep_ch in
			\\) printf '\\\\' ;;
			\;) printf '\\x3b' ;;
			[[:cntrl:]]) printf '\\x%02x' "'$__tshep_ch" ;;
			*) printf '%s' "$__tshep_ch" ;;
			esac
			__tshep_rest=$__tshep_tail
		done
	}
	__tshep_ps1=${PS1-\$ }
	PS1="${__tshep_i}${__tshep_e}]633;D;\$?${__tshep_a}${__tshep_e}]633;P;Cwd=\$(__tshep_cwd)${__tshep_a}${__tshep_e}]633;A${__tshep_a}${__tshep_i}${__tshep_ps1}${__tshep_i}${__tshep_e}]633;B${__tshep_a}${__tshep_i}"
	if [ -n "$__tshep_i" ]; then PS1="${__tshep_i}$(printf '\r')${PS1}"; fi
	unset __tshep_ps1
fi
