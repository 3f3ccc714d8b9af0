import test from 'ava';
import {
  UWS_CURRENT_PACKAGE,
  UWS_NODE20_PACKAGE,
  uwsAdvice,
  uwsBuildFor,
  type Machine,
} from '../../src/adapter/uws-builds';

const linux = (nodeVersion: string, glibc: string | undefined, arch = 'x64'): Machine => ({
  nodeVersion,
  platform: 'linux',
  arch,
  glibc,
});

test('Node 20 gets v20.30 everywhere it has binaries, old glibc included (Debian 12, Ubuntu 22.04)', (t) => {
  t.is(uwsBuildFor(linux('20.19.0', '2.36')).spec, UWS_NODE20_PACKAGE);
  t.is(uwsBuildFor(linux('20.20.2', '2.41')).spec, UWS_NODE20_PACKAGE);
  t.is(
    uwsBuildFor({ nodeVersion: '20.19.0', platform: 'darwin', arch: 'arm64', glibc: undefined }).spec,
    UWS_NODE20_PACKAGE,
  );
  t.is(
    uwsBuildFor({ nodeVersion: '20.19.0', platform: 'win32', arch: 'x64', glibc: undefined }).spec,
    UWS_NODE20_PACKAGE,
  );
});

test('Node 22, 24 and 25 get v20.57 on glibc 2.38+ (Debian 13, Ubuntu 24.04), macOS and Windows x64', (t) => {
  for (const version of ['22.20.0', '24.12.0', '25.1.0']) {
    t.is(uwsBuildFor(linux(version, '2.38')).spec, UWS_CURRENT_PACKAGE, version);
    t.is(uwsBuildFor(linux(version, '2.41', 'arm64')).spec, UWS_CURRENT_PACKAGE, version);
    t.is(
      uwsBuildFor({ nodeVersion: version, platform: 'darwin', arch: 'x64', glibc: undefined }).spec,
      UWS_CURRENT_PACKAGE,
    );
    t.is(
      uwsBuildFor({ nodeVersion: version, platform: 'win32', arch: 'x64', glibc: undefined }).spec,
      UWS_CURRENT_PACKAGE,
    );
  }
});

test('no build: Node 22+ on glibc older than 2.38, musl, Node 18 and 26, Windows on arm64 — each says what to do instead', (t) => {
  const oldGlibc = uwsBuildFor(linux('24.12.0', '2.36'));
  t.is(oldGlibc.spec, undefined);
  t.regex(oldGlibc.reason, /need glibc 2\.38 or newer and this machine has 2\.36/);
  t.true(oldGlibc.reason.includes(UWS_NODE20_PACKAGE), 'names the Node 20 way out');
  t.regex(uwsBuildFor(linux('22.20.0', undefined)).reason, /no build for musl libc \(Alpine Linux\)/);
  t.regex(uwsBuildFor(linux('20.19.0', undefined)).reason, /musl/);
  t.regex(
    uwsBuildFor(linux('18.20.0', '2.36')).reason,
    /no published uWebSockets\.js build has binaries for Node 18: use Node 20, 22 or 24/,
  );
  t.regex(uwsBuildFor(linux('26.0.0', '2.41')).reason, /Node 26/);
  t.regex(
    uwsBuildFor({ nodeVersion: '24.12.0', platform: 'win32', arch: 'arm64', glibc: undefined }).reason,
    /win32-arm64/,
  );
});

test('the advice is a dependency line to add when a build fits, the reason alone when none does', (t) => {
  t.is(
    uwsAdvice(linux('24.12.0', '2.41')),
    `add "uWebSockets.js": "${UWS_CURRENT_PACKAGE}" to your dependencies (uWebSockets.js v20.57, the build for Node 22 to 25 on glibc 2.38 or newer, macOS and Windows)`,
  );
  t.regex(uwsAdvice(linux('24.12.0', '2.36')), /^the uWebSockets\.js builds for Node 24 need glibc 2\.38/);
});
