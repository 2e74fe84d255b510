# Terminal Shepherd shell integration for fish: the OSC 633 sequences VS Code reads (A, B, C,
# D;exit code, E;command line, P;Cwd), for terminals where VS Code's own integration does not
# activate. Loaded with `fish --init-command 'source <this file>'`, which runs after the user's
# config: their fish_prompt is wrapped, not replaced, and sees the command's status as before.
if set -q __tshep_loaded
    exit 0
end
set -g __tshep_loaded 1

# Agent commands stay out of the user's history, as VS Code's chat.tools.terminal.preventShellHistory
# asks (the variable its own scripts read): private mode keeps every command of this shell out.
if test "$VSCODE_PREVENT_SHELL_HISTORY" = 1
    set -g fish_private_mode 1
    set -e VSCODE_PREVENT_SHELL_HISTORY
end

# $argv escaped for an OSC 633 value: \ as \\, ; and control characters as \xHH (lines joined
# with \x0a: fish's command substitution splits on newlines).
function __tshep_esc
    set -l lines
    for line in (string join -- \n $argv | string split -- \n)
        set -a lines (__tshep_esc_line $line)
    end
    printf '%s' (string join -- '\x0a' $lines)
end

function __tshep_esc_line
    if not string match -qr -- '[\\\\;\x00-\x1f\x7f]' $argv[1]
        printf '%s\n' $argv[1]
        return
    end
    set -l out
    for c in (string split -- '' $argv[1])
        switch $c
            case '\\'
                set -a out '\\\\'
            case ';'
                set -a out '\\x3b'
            case '*'
                if string match -qr -- '[\x00-\x1f\x7f]' $c
                    # url style gives %XX; VS Code reads \xXX in either case
                    set -a out (string replace -- '%' '\\x' (string escape --style=url -- $c))
                else
                    set -a out $c
                end
        end
    end
    printf '%s\n' (string join -- '' $out)
end

function __tshep_preexec --on-event fish_preexec
    printf '\e]633;E;%s\a\e]633;C\a' (__tshep_esc $argv)
    set -g __tshep_ran 1
end

function __tshep_postexec --on-event fish_postexec
    set -l s $status
    printf '\e]633;D;%s\a' $s
    set -e __tshep_ran
end

function __tshep_status
    return $argv[1]
end

function __tshep_wrap_prompt
    functions -q fish_prompt; or return
    functions -c fish_prompt __tshep_user_prompt
    function fish_prompt
        set -l s $status
        printf '\e]633;P;Cwd=%s\a\e]633;A\a' (__tshep_esc $PWD)
        __tshep_status $s
        __tshep_user_prompt
        printf '\e]633;B\a'
    end
end
__tshep_wrap_prompt

# A theme that defines fish_prompt later (lazily, or on a variable change) is wrapped again.
function __tshep_rewrap --on-event fish_prompt
    if not functions -q __tshep_user_prompt; or not string match -q '*633;A*' -- (functions fish_prompt)
        functions -e __tshep_user_prompt
        __tshep_wrap_prompt
    end
end
