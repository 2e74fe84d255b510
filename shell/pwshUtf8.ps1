# UTF-8 output for a managed PowerShell session, FullLanguage only (pwshCommon.ps1 checks the
# language mode before it dot-sources this file: the .NET types below are not core types).
# No BOM: 5.1's [Text.Encoding]::UTF8 would write one in front of what goes to native programs.
$global:OutputEncoding = [System.Text.UTF8Encoding]::new($false)
[Console]::OutputEncoding = $global:OutputEncoding
