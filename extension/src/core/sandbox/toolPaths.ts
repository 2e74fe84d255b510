/**
 * The tool caches a sandboxed command may read, opened by the tools the line calls: VS Code's
 * allow-lists (chatAgentTools' terminalSandboxReadAllowList and the per-operation runtime
 * options), so a command behaves the same in VS Code's sandbox and in ours. Like VS Code's, they
 * leave out ~/.ssh for anything but git/ssh, cloud credentials and package managers' auth files.
 */

export type SandboxOs = 'linux' | 'mac';

type Tool = 'git' | 'node' | 'rust' | 'go' | 'python' | 'java' | 'dotnet' | 'nuget' | 'ruby' | 'nativeBuild' | 'conan' | 'gnupg' | 'ssh';

const TOOL_OF: Readonly<Record<string, Tool>> = {
  git: 'git', gh: 'git', gpg: 'gnupg', gpg2: 'gnupg',
  node: 'node', npm: 'node', npx: 'node', pnpm: 'node', yarn: 'node', corepack: 'node', bun: 'node', deno: 'node', nvm: 'node', volta: 'node', fnm: 'node', asdf: 'node', mise: 'node',
  cargo: 'rust', rustc: 'rust', rustup: 'rust', go: 'go', gofmt: 'go',
  python: 'python', python3: 'python', pip: 'python', pip3: 'python', poetry: 'python', uv: 'python', pipx: 'python', pyenv: 'python',
  java: 'java', javac: 'java', jar: 'java', mvn: 'java', mvnw: 'java', gradle: 'java', gradlew: 'java', sdk: 'java',
  dotnet: 'dotnet', nuget: 'nuget', ruby: 'ruby', gem: 'ruby', bundle: 'ruby', bundler: 'ruby', rake: 'ruby', rbenv: 'ruby', rvm: 'ruby',
  ccache: 'nativeBuild', sccache: 'nativeBuild', cmake: 'nativeBuild', conan: 'conan',
};

/** VS Code: git (for signing) opens ~/.gnupg; git, ssh, scp, sftp and rsync open ~/.ssh. */
const ALSO_OPENS: Readonly<Record<string, readonly Tool[]>> = { git: ['gnupg', 'ssh'], ssh: ['ssh'], scp: ['ssh'], sftp: ['ssh'], rsync: ['ssh'] };

const NODE_COMMON = ['~/.npm', '~/.electron-gyp', '~/.node-gyp', '~/.yarn/berry', '~/.local/share/pnpm', '~/.pnpm-store', '~/.bun/install/cache', '~/.bun/bin', '~/.deno', '~/.nvm/versions', '~/.nvm/alias', '~/.volta/bin', '~/.volta/tools', '~/.fnm', '~/.asdf/installs/nodejs', '~/.asdf/shims', '~/.local/share/mise/installs/node', '~/.local/share/mise/shims'];
const PYTHON_COMMON = ['~/.local/bin', '~/.local/share/virtualenv', '~/.local/share/pipx', '~/.pyenv/versions', '~/.pyenv/shims'];

function readPaths(tool: Tool, os: SandboxOs): readonly string[] {
  const mac = os === 'mac';
  switch (tool) {
    case 'git':
      return ['~/.gitconfig', '~/.config/gh/config.yml', '~/.config/git/config', '~/.gitignore', '~/.gitignore_global', '~/.config/git/ignore', '~/.config/git/attributes'];
    case 'node':
      return mac
        ? [...NODE_COMMON, '~/Library/Caches/node', '~/Library/Caches/electron', '~/Library/Caches/ms-playwright', '~/Library/Caches/Yarn', '~/Library/Caches/deno', '~/Library/pnpm']
        : [...NODE_COMMON, '~/.cache/node', '~/.cache/node/corepack', '~/.cache/electron', '~/.cache/ms-playwright', '~/.cache/yarn', '~/.cache/deno'];
    case 'rust':
      return ['~/.cargo/bin', '~/.cargo/registry', '~/.cargo/git', '~/.rustup/toolchains'];
    case 'go':
      return ['~/go/pkg/mod', '~/go/bin', mac ? '~/Library/Caches/go-build' : '~/.cache/go-build'];
    case 'python':
      return mac ? ['~/Library/Caches/pip', '~/Library/Caches/pypoetry', '~/Library/Caches/uv', ...PYTHON_COMMON] : ['~/.cache/pip', '~/.cache/pypoetry', '~/.cache/uv', ...PYTHON_COMMON];
    case 'java':
      return ['~/.m2/repository', '~/.gradle/caches', '~/.gradle/wrapper/dists', '~/.sdkman/candidates'];
    case 'dotnet':
      return ['~/.dotnet'];
    case 'nuget':
      return ['~/.nuget/packages', mac ? '~/Library/Caches/NuGet/v3-cache' : '~/.local/share/NuGet/v3-cache'];
    case 'ruby':
      return ['~/.gem', '~/.rbenv/versions', '~/.rbenv/shims', '~/.rvm/rubies'];
    case 'nativeBuild':
      return mac ? ['~/Library/Caches/ccache', '~/Library/Caches/sccache'] : ['~/.cache/ccache', '~/.cache/sccache'];
    case 'conan':
      return ['~/.conan2/p', '~/.conan2/b'];
    case 'gnupg':
      return ['~/.gnupg'];
    case 'ssh':
      return ['~/.ssh'];
  }
}

/** The paths (with `~`) the tools of a line may read inside the sandbox: none when the line names no tool VS Code knows. */
export function toolReadPaths(keywords: readonly string[], os: SandboxOs): string[] {
  const tools = new Set<Tool>();
  for (const keyword of keywords.map((k) => k.toLowerCase())) {
    const tool = TOOL_OF[keyword];
    if (tool) tools.add(tool);
    for (const also of ALSO_OPENS[keyword] ?? []) tools.add(also);
  }
  return [...new Set([...tools].flatMap((tool) => readPaths(tool, os)))];
}

/** The runtime options a line's tools add (VS Code's per-operation configuration): gpg's agent socket and keyring, volta's writes. */
export function toolRuntimeOptions(keywords: readonly string[]): { readonly allowWrite: readonly string[]; readonly allowAllUnixSockets: boolean } {
  const lower = keywords.map((k) => k.toLowerCase());
  const node = lower.some((k) => TOOL_OF[k] === 'node');
  // VS Code: gpg always; git for signing, unless the line is docker's.
  const gnupg = lower.some((k) => k === 'gpg' || k === 'gpg2') || (lower.includes('git') && !lower.some((k) => k.startsWith('docker')));
  return { allowWrite: [...(gnupg ? ['~/.gnupg'] : []), ...(node ? ['~/.volta/'] : [])], allowAllUnixSockets: gnupg };
}
