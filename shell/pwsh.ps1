# Terminal Shepherd shell integration for PowerShell (pwsh 7 and Windows PowerShell 5.1): the
# OSC 633 sequences VS Code reads, for managed terminals. Loaded after the user's profile with
# `-NoExit -Command ". '<this file>'"`.
#
# - The end of a command (D with its exit code) comes from the prompt function, never from the
#   command line: a terminating error stops the line, but the prompt is always drawn, so the end
#   marker always comes and the terminal is never left waiting.
# - C is printed by the line Terminal Shepherd types (`__TshepC; . "<command file>"`), which needs
#   no PSReadLine; the command itself is a file (one line typed, any number of lines run). With C
#   comes the screen (__TshepScreen): where the output starts, for ConPTY's absolute-row paint.
# - The exit code is the ladder of pwshCommon.ps1: $?, $LASTEXITCODE and whether a native program
#   ran, with where it came from in a property (TshepExitSource) before D.
# - ConstrainedLanguage-safe like pwshCommon.ps1: no method calls, no type literals but [char].
if (Test-Path variable:global:__TshepLoaded) { return }
$global:__TshepLoaded = $true
. (Join-Path $PSScriptRoot 'pwshCommon.ps1')

# Predictions (PSReadLine 2.1+) draw suggestions under the line and fail on redirected output;
# managed terminals are typed into by Terminal Shepherd, not by a person. Older PSReadLine
# (5.1's 2.0) has no such option: nothing to turn off there.
if (Get-Module -Name PSReadLine) {
	try { Set-PSReadLineOption -PredictionSource None -ErrorAction Stop } catch { }
	# Agent commands stay out of the user's history, as VS Code's chat.tools.terminal.preventShellHistory asks.
	if ($env:VSCODE_PREVENT_SHELL_HISTORY -eq '1') {
		try { Set-PSReadLineOption -AddToHistoryHandler { param($line) return $false } -ErrorAction Stop } catch { }
		$env:VSCODE_PREVENT_SHELL_HISTORY = $null
	}
}

# The user's prompt (from their profile, or PowerShell's default) keeps drawing the prompt text,
# called with `&` (VS Code's script calls .Invoke(), a method call ConstrainedLanguage refuses).
$global:__TshepUserPrompt = $function:prompt
if ($null -eq $global:__TshepUserPrompt) {
	$global:__TshepUserPrompt = { "PS $($executionContext.SessionState.Path.CurrentLocation)$('>' * ($nestedPromptLevel + 1)) " }
}
$global:__TshepRan = $false

# Typed before every command Terminal Shepherd runs: the command starts now.
function global:__TshepC {
	__TshepBefore
	Write-Host -NoNewline ((__TshepOsc 'C') + (__TshepScreen))
}

# P;Cwd as VS Code reads it: `\` and `;` escaped (Windows paths hold no control characters).
function global:__TshepCwd {
	$path = "$($executionContext.SessionState.Path.CurrentLocation.ProviderPath)"
	return ($path -replace '\\', '\\' -replace ';', '\x3b')
}

function global:prompt {
	# $? and LASTEXITCODE first: any statement before would change them.
	$ok = $global:?
	$native = $global:LASTEXITCODE
	$marks = ''
	if ($global:__TshepRan) {
		# $? of the command itself, recorded by its file: after `. file` $? is true even when the
		# file's last cmdlet failed (a non-terminating error does not fail the dot-sourcing).
		if ($null -ne $global:__TshepFileOk) { $ok = $global:__TshepFileOk }
		$status = __TshepAfter -Ok $ok -Native $native
		$marks = (__TshepExitProperties $status) + (__TshepOsc "D;$($status.Code)")
	}
	$marks += (__TshepOsc "P;Cwd=$(__TshepCwd)") + (__TshepOsc 'A')
	return $marks + "$(& $global:__TshepUserPrompt)" + (__TshepOsc 'B')
}
