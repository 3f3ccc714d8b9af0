import { execFileSync } from 'node:child_process';

/** Debian packages the engines need (the same list as .ci/preflight.sh "apps"). */
export const ENGINE_PACKAGES = [
  'ffmpeg',
  'libpocketsphinx3',
  'pocketsphinx-en-us',
  'apertium',
  'apertium-eng-spa',
  'apertium-eng-cat',
  'apertium-en-gl',
  'apertium-fr-es',
  'apertium-es-pt',
  'apertium-spa-ita',
  'espeak-ng',
  'flite',
];

function missingPackages(packages: readonly string[]): string[] {
  return packages.filter((name) => {
    try {
      return (
        execFileSync('dpkg-query', ['-W', '-f=${Status}', name], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }) !== 'install ok installed'
      );
    } catch {
      return true;
    }
  });
}

let checked = false;

/**
 * Makes sure the engines' Debian packages are installed: installs them as root, otherwise fails with the
 * exact command to run. Nothing is skipped.
 */
export function requireEnginePackages(extra: readonly string[] = []): void {
  if (checked && extra.length === 0) return;
  const wanted = [...ENGINE_PACKAGES, ...extra];
  const missing = missingPackages(wanted);
  if (missing.length > 0) {
    const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
    if (process.getuid?.() !== 0)
      throw new Error(`voice-stream tests need Debian packages: ${missing.join(' ')}. Run as root: ${command}`);
    execFileSync('sh', ['-c', command], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const still = missingPackages(wanted);
    if (still.length > 0) throw new Error(`Installing ${still.join(' ')} failed; run: ${command}`);
  }
  checked = true;
}
