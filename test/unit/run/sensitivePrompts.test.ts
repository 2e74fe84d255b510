import assert from 'node:assert/strict';
import { isSensitivePrompt, SENSITIVE_PROMPTS, sensitivePromptSource } from '../../../extension/src/core/run/sensitivePrompts';

describe('sensitive prompts', () => {
  const secret: Array<[string, string]> = [
    ['[sudo] password for dev: ', 'sudo'],
    ['[sudo] Mot de passe de dev : ', 'sudo (other locales)'],
    ['[sudo] Passwort für dev: ', 'sudo (other locales)'],
    ['Password: ', 'su, passwd, login, read -s "Password: "'],
    ['Passwort: ', 'su, passwd, login, read -s "Password: "'],
    ['Mot de passe : ', 'su, passwd, login, read -s "Password: "'],
    ['Contraseña: ', 'su, passwd, login, read -s "Password: "'],
    ['Пароль: ', 'su, passwd, login, read -s "Password: "'],
    ['パスワード：', 'su, passwd, login, read -s "Password: "'],
    ['密码：', 'su, passwd, login, read -s "Password: "'],
    ["Enter passphrase for key '/home/dev/.ssh/id_ed25519': ", 'ssh key passphrase, gpg passphrase'],
    ['Enter passphrase: ', 'ssh key passphrase, gpg passphrase'],
    ["dev@build-host's password: ", 'ssh host password'],
    ["Password for 'https://dev@github.com': ", 'git credentials over HTTPS'],
    ['Enter PIN: ', 'gpg pinentry (tty)'],
    ['npm notice Enter one-time password: ', 'npm/yarn/pnpm login, docker login'],
    ['One-time password: ', 'npm/yarn/pnpm login, docker login'],
    ['Paste your authentication token: ', 'tokens and API keys asked for (gh auth login --with-token, CLIs)'],
    ['Enter your OpenAI API key: ', 'tokens and API keys asked for (gh auth login --with-token, CLIs)'],
    ['AWS Secret Access Key [None]: ', 'aws configure'],
    ['Password for user dev: ', 'PowerShell Read-Host -AsSecureString, Get-Credential'],
    ['Enter the SecureString value: ', 'PowerShell Read-Host -AsSecureString (custom prompt)'],
    ['Enter the password for dev-admin: ', 'Windows runas, net use'],
  ];
  for (const [prompt, source] of secret) {
    it(`${JSON.stringify(prompt)} asks for a secret (${source})`, () => {
      assert.ok(isSensitivePrompt(prompt));
      // The first rule that matches names it; several may (a localized "Password:" in sudo's line).
      assert.ok(SENSITIVE_PROMPTS.some((rule) => rule.source === source && rule.pattern.test(prompt.trim())), `${source} should match`);
    });
  }

  const plain = [
    'Do you want to continue? [Y/n] ',
    'package name: (my-app) ',
    'Username: ',
    "Username for 'https://github.com': ",
    '? Would you like to use TypeScript? › No / Yes',
    'Login Succeeded',
    'password reset emails are sent from noreply@example.com',
    '>>> ',
    'Press any key to continue . . .',
    'npm notice Log in on https://registry.npmjs.org/',
  ];
  for (const prompt of plain) {
    it(`${JSON.stringify(prompt)} asks for nothing secret`, () => {
      assert.equal(sensitivePromptSource(prompt), undefined);
    });
  }
});
