/**
 * Puts Terminal Shepherd's shell integration scripts (shell/ at the top of the package) where shells can read
 * them: a private folder (0700) per user under the OS temp dir, one subfolder per script version
 * (content hash), so windows of different versions never overwrite each other's files. zsh needs
 * its scripts as dotfiles in a folder of their own (ZDOTDIR).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Source file in shell/ -> name in the prepared folder. */
const FILES: Readonly<Record<string, string>> = {
  'bash.sh': 'bash.sh',
  'posix.sh': 'posix.sh',
  'fish.fish': 'fish.fish',
  'zshenv.zsh': 'zsh/.zshenv',
  'zprofile.zsh': 'zsh/.zprofile',
  'zshrc.zsh': 'zsh/.zshrc',
  'zlogin.zsh': 'zsh/.zlogin',
  'pwsh.ps1': 'pwsh.ps1',
  'pwshCommon.ps1': 'pwshCommon.ps1',
  'pwshUtf8.ps1': 'pwshUtf8.ps1',
};

export interface IntegrationFiles {
  readonly bash: string;
  readonly posix: string;
  readonly fish: string;
  /** PowerShell's integration, and the part every managed PowerShell terminal shares (the exit-code ladder). */
  readonly pwsh: string;
  readonly pwshCommon: string;
  /** The folder zsh gets as ZDOTDIR. */
  readonly zshDir: string;
  /** A private folder for per-run files (multi-line commands). */
  readonly runsDir: string;
}

/** The per-user private base folder: `<tmp>/terminal-shepherd-<uid>`. */
export function privateBaseDir(tmpDir = os.tmpdir()): string {
  const uid = typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
  return path.join(tmpDir, `terminal-shepherd-${uid}`);
}

/** Copies the scripts from `sourceDir` into the private folder (once per content) and returns their paths. */
export async function prepareIntegrationFiles(sourceDir: string, baseDir = privateBaseDir()): Promise<IntegrationFiles> {
  await ensurePrivateDir(baseDir);
  const contents = new Map<string, string>();
  const hash = createHash('sha256');
  for (const source of Object.keys(FILES).sort()) {
    const text = await fs.readFile(path.join(sourceDir, source), 'utf8');
    contents.set(source, text);
    hash.update(source).update('\0').update(text).update('\0');
  }
  const dir = path.join(baseDir, `integration-${hash.digest('hex').slice(0, 12)}`);
  await fs.mkdir(path.join(dir, 'zsh'), { recursive: true, mode: 0o700 });
  for (const [source, text] of contents) {
    const target = path.join(dir, FILES[source]!);
    // Written to a temp name and renamed: a shell starting meanwhile never reads half a file.
    const temp = `${target}.${process.pid}.tmp`;
    await fs.writeFile(temp, text, { mode: 0o600 });
    await fs.rename(temp, target);
  }
  const runsDir = path.join(baseDir, 'runs');
  await ensurePrivateDir(runsDir);
  return {
    bash: path.join(dir, 'bash.sh'),
    posix: path.join(dir, 'posix.sh'),
    fish: path.join(dir, 'fish.fish'),
    pwsh: path.join(dir, 'pwsh.ps1'),
    pwshCommon: path.join(dir, 'pwshCommon.ps1'),
    zshDir: path.join(dir, 'zsh'),
    runsDir,
  };
}

/** Creates `dir` as 0700 and refuses one that another user owns or others can write. */
async function ensurePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const stat = await fs.lstat(dir);
  if (!stat.isDirectory()) {
    throw new Error(`${dir} is not a directory`);
  }
  if (typeof process.getuid === 'function' && (stat.uid !== process.getuid() || (stat.mode & 0o022) !== 0)) {
    throw new Error(`${dir} is not private to this user (owner ${stat.uid}, mode ${(stat.mode & 0o777).toString(8)}); remove it and retry`);
  }
}

/** prepareIntegrationFiles done once and shared; a failure is retried on the next call. */
export function integrationFilesProvider(sourceDir: string, baseDir?: string): () => Promise<IntegrationFiles> {
  let pending: Promise<IntegrationFiles> | undefined;
  return () => {
    pending ??= prepareIntegrationFiles(sourceDir, baseDir).catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
