// Extension folders as VS Code loads them: the identity that names a folder in an extensions dir,
// and a .vsix packed from one (to install the way users do, with `--install-extension`).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** An extension folder's id (`publisher.name`), version, and `<publisher>.<name>-<version>`: the
 * folder name VS Code expects in an extensions dir. */
export function readExtensionIdentity(extensionDir: string): { id: string; version: string; folderName: string } {
  const pj = path.join(extensionDir, 'package.json');
  let manifest: { publisher?: string; name?: string; version?: string };
  try {
    manifest = JSON.parse(fs.readFileSync(pj, 'utf8'));
  } catch (e) {
    throw new Error(`Cannot read the extension manifest ${pj}: ${(e as Error).message}`);
  }
  if (!manifest.publisher || !manifest.name || !manifest.version) throw new Error(`${pj} needs publisher, name and version`);
  const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
  return { id, version: manifest.version, folderName: `${id}-${manifest.version}` };
}

export function extensionFolderName(extensionDir: string): string {
  return readExtensionIdentity(extensionDir).folderName;
}

/** Packs an extension folder into a minimal .vsix (zip with extension/ and a vsixmanifest), using
 * python3's zipfile (python3 is on every machine that builds code-server's native modules).
 * Files: everything in the folder except node_modules/.git, following nothing fancy (no .vscodeignore). */
export function packVsix(extensionDir: string, outFile: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
  const vsixManifest = `<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">
  <Metadata>
    <Identity Language="en-US" Id="${manifest.name}" Version="${manifest.version}" Publisher="${manifest.publisher}" />
    <DisplayName>${manifest.displayName ?? manifest.name}</DisplayName>
    <Description xml:space="preserve">${manifest.description ?? ''}</Description>
    <Categories>Other</Categories>
    <GalleryFlags>Public</GalleryFlags>
    <Properties><Property Id="Microsoft.VisualStudio.Code.Engine" Value="${manifest.engines?.vscode ?? '*'}" /></Properties>
  </Metadata>
  <Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation>
  <Dependencies/>
  <Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true" /></Assets>
</PackageManifest>
`;
  const contentTypes = `<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json"/><Default Extension=".js" ContentType="application/javascript"/><Default Extension=".vsixmanifest" ContentType="text/xml"/><Default Extension=".md" ContentType="text/markdown"/><Default Extension=".txt" ContentType="text/plain"/></Types>
`;
  const script = `
import os, sys, zipfile
src, out, manifest, types = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('extension.vsixmanifest', manifest)
    z.writestr('[Content_Types].xml', types)
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d not in ('node_modules', '.git'))
        for f in sorted(files):
            full = os.path.join(root, f)
            z.write(full, 'extension/' + os.path.relpath(full, src))
`;
  fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
  const r = spawnSync('python3', ['-c', script, extensionDir, outFile, vsixManifest, contentTypes], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`packVsix failed: ${r.error?.message ?? r.stderr}`);
  return outFile;
}
