# Terminal Shepherd for PowerShell (pwsh 7 and Windows PowerShell 5.1): what every managed
# PowerShell terminal shares, whatever its strategy. Dot-sourced by pwsh.ps1 (our integration),
# by the command files of the `vscode` strategy and by the extension-owned terminal's files.
#
# Written for ConstrainedLanguage (AppLocker/WDAC machines): no method calls, no type literals
# but [char] (a core type), nothing but cmdlets, operators and variables, so that a locked-down
# machine still gets its end marker and exit code. test/unit/terminals/pwshScripts.test.ts parses
# it with a real PowerShell grammar and fails on any of them.

# The exit code of one command, from what PowerShell leaves behind (the ladder):
# - a native program ran (LASTEXITCODE, cleared before the command, is set again) and failed:
#   its code, even when cmdlets after it in a `;` chain succeeded ($? alone would hide it);
# - it ran and exited 0 but $? is false: PowerShell 5.1 turns a native program's stderr sent
#   through 2>&1 into NativeCommandError records and sets $? false although the program succeeded
#   (0, inferred); any other error after it is a failure of PowerShell's own (1);
# - no native program: $? (0 or 1), the shell's own word.
# `-Ok` is $? and `-Native` $LASTEXITCODE, both read before anything else ran.
function global:__TshepExitStatus {
	param($Ok, $Native, $LastErrorId)
	if ($null -ne $Native) {
		if ($Native -ne 0) { return @{ Code = $Native; Source = 'native' } }
		if ($Ok) { return @{ Code = 0; Source = 'native' } }
		if ("$LastErrorId" -like 'NativeCommandError*') { return @{ Code = 0; Source = 'inferred' } }
		return @{ Code = 1; Source = 'shell' }
	}
	if ($Ok) { return @{ Code = 0; Source = 'shell' } }
	return @{ Code = 1; Source = 'shell' }
}

# Before a command: LASTEXITCODE cleared, so the ladder can tell whether a native program ran (a
# stale code of an earlier program is never reported); the user's value is kept and restored
# when none ran, so `$LASTEXITCODE` still means what it always did.
function global:__TshepBefore {
	$global:__TshepSavedExit = $global:LASTEXITCODE
	$global:LASTEXITCODE = $null
	$global:__TshepFileOk = $null
	$global:__TshepRan = $true
}

# After a command: its exit code and where it came from, as one object; LASTEXITCODE restored
# when no native program ran.
function global:__TshepAfter {
	param($Ok, $Native)
	$global:__TshepRan = $false
	$lastErrorId = $null
	if ($global:Error.Count -gt 0) { $lastErrorId = $global:Error[0].FullyQualifiedErrorId }
	$status = __TshepExitStatus -Ok $Ok -Native $Native -LastErrorId $lastErrorId
	if ($null -eq $Native) { $global:LASTEXITCODE = $global:__TshepSavedExit }
	return $status
}

# Typed after a command file that reports its own code (VS Code's integration): `exit 3` in the
# file ends it before its report, but not the typed line, so the report comes from here, with $?
# and LASTEXITCODE as the exit left them. A file that reported already (the ladder ran) is left
# alone; a terminating error stops the line, and VS Code's end (D;1) stands.
function global:__TshepAfterFile {
	param($Ok, $Native)
	if (-not $global:__TshepRan) { return }
	$status = __TshepAfter -Ok $Ok -Native $Native
	Write-Host -NoNewline (__TshepExitProperties $status)
}

# An OSC 633 sequence (VS Code's shell integration); [char] is a core type, allowed everywhere.
function global:__TshepOsc {
	param($Body)
	return "$([char]27)]633;$Body$([char]7)"
}

# Where the command's output starts on the screen (the cursor, 0-based from the window's top-left)
# and the screen's size, as a property the run reads before any output: ConPTY paints a blank line
# as a jump to an absolute row, so the run replays the output from the same place on a screen of
# the same size. Windows knows all four from the console; elsewhere .NET asks the terminal for the
# cursor (CSI 6n), as PSReadLine does on every key. Nothing where the host has no console.
function global:__TshepScreen {
	try {
		$ui = $Host.UI.RawUI
		$cursor = $ui.CursorPosition
		$window = $ui.WindowPosition
		$size = $ui.WindowSize
		return __TshepOsc "P;TshepScreen=$($cursor.Y - $window.Y),$($cursor.X - $window.X),$($size.Width),$($size.Height)"
	} catch {
		return ''
	}
}

# The exit code and its source as properties the run reads from the output (before D, so that
# they are inside the execution's output).
function global:__TshepExitProperties {
	param($Status)
	return (__TshepOsc "P;TshepExitCode=$($Status.Code)") + (__TshepOsc "P;TshepExitSource=$($Status.Source)")
}

# UTF-8 for what programs print and what PowerShell decodes, in this (managed) session only: the
# user's own terminals, profile and system code page are untouched. Setting the console encoding
# needs .NET types, which ConstrainedLanguage forbids: there the console code page is switched
# instead (chcp, Windows only).
if ($ExecutionContext.SessionState.LanguageMode -eq 'FullLanguage') {
	. (Join-Path $PSScriptRoot 'pwshUtf8.ps1')
} elseif ($env:OS -eq 'Windows_NT') {
	chcp.com 65001 | Out-Null
}
