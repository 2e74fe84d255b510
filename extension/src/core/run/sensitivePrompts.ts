/**
 * Which prompts ask for a secret: the person types those in the terminal, never the model
 * (terminal_input refuses, the result says so). Matched against the prompt line a run reports as
 * waiting_for_input. VS Code's own test is one keyword list (password, passphrase, token, api key,
 * secret); this table names the tools and languages it covers, so each can be tested.
 */

export interface SensitivePromptRule {
  /** What asks (for the docs and the tests). */
  readonly source: string;
  readonly pattern: RegExp;
}

/** The table (docs/secrets.md lists it). A prompt line matches when any rule does. */
export const SENSITIVE_PROMPTS: readonly SensitivePromptRule[] = [
  { source: 'sudo', pattern: /^\[sudo\] .*:\s*$/i },
  { source: 'sudo (other locales)', pattern: /^\[sudo\] (mot de passe|Passwort|contraseña|senha|password|パスワード|密码)/i },
  { source: 'su, passwd, login, read -s "Password: "', pattern: /(?<!\p{L})(password|passwort|mot de passe|contraseña|senha|parola d'ordine|wachtwoord|hasło|пароль|パスワード|密码|密碼|비밀번호)(?!\p{L})[^\n]{0,80}[:：]\s*$/iu },
  { source: 'ssh key passphrase, gpg passphrase', pattern: /\b(passphrase|phrase secrète|Passphrase)\b[^\n]{0,120}[:：]?\s*$/i },
  { source: 'ssh host password', pattern: /^[\w.@-]+'s password:\s*$/ },
  { source: 'git credentials over HTTPS', pattern: /^Password for '[^']+':\s*$/ },
  { source: 'gpg pinentry (tty)', pattern: /\b(PIN|passcode|Enter PIN)\b[^\n]{0,40}:\s*$/ },
  { source: 'npm/yarn/pnpm login, docker login', pattern: /^(npm (notice|WARN) )?(Password|Enter password|One-time password|OTP|Enter one-time password)[^\n]{0,60}:\s*$/i },
  { source: 'tokens and API keys asked for (gh auth login --with-token, CLIs)', pattern: /\b(token|api[ _-]?key|secret|access key|secret key)\b[^\n]{0,60}[:?]\s*$/i },
  { source: 'aws configure', pattern: /^AWS (Secret )?Access Key( ID)? \[[^\]]*\]:\s*$/ },
  { source: 'PowerShell Read-Host -AsSecureString, Get-Credential', pattern: /^(PowerShell credential request|Password for user [^:]+|User: [^\n]*Password)[^\n]*:?\s*$/i },
  { source: 'PowerShell Read-Host -AsSecureString (custom prompt)', pattern: /\bsecure(string)?\b[^\n]{0,60}:\s*$/i },
  { source: 'Windows runas, net use', pattern: /^(Enter the password for|Type the password for) [^\n]+:\s*$/i },
];

/** The rule a prompt line matches, or undefined when it asks for nothing secret. */
export function sensitivePromptSource(prompt: string): string | undefined {
  const line = prompt.trim();
  return SENSITIVE_PROMPTS.find((rule) => rule.pattern.test(line))?.source;
}

export function isSensitivePrompt(prompt: string): boolean {
  return sensitivePromptSource(prompt) !== undefined;
}
