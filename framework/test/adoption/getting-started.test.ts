/**
 * Runs docs/getting-started.md, so the guide cannot rot. Its code blocks, in order:
 *   ```sh                 a command, run with bash in the current folder (a `cd` carries over); must succeed
 *   ```sh keep-running    a server command, started in the background and stopped at the end
 *   ```json|ts file=PATH  a file the project has (npm create wrote it), exactly as shown
 *   ```text               the previous command's output, exactly
 *   ```text excerpt       lines that must all appear in the previous command's output
 * What the reader runs differs in two ways only: `npm create rest-uws@latest` runs the packed create-rest-uws with
 * the packed rest.uws (neither is published yet: the guide says how to do the same by hand), and the guide's port
 * 3000 becomes a free port (PORT in the environment, and in the commands and outputs).
 */
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import {
  cleanEnvironment,
  packFramework,
  packWorkspace,
  repositoryDir,
  run,
  temporaryFolder,
} from './support/adopter-project';

const guideFile = path.join(repositoryDir, 'docs', 'getting-started.md');
const templateDir = path.join(repositoryDir, 'packages', 'create-rest-uws', 'template');
const GUIDE_PORT = '3000';

interface Block {
  lang: string;
  info: string[];
  body: string;
  line: number;
}

/** The fenced code blocks of a Markdown file. */
function codeBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S+)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    blocks.push({
      lang: open[1]!,
      info: open[2]!.trim().split(/\s+/).filter(Boolean),
      body: body.join('\n') + '\n',
      line: start + 1,
    });
  }
  return blocks;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The blocks of the reference pages that show files of the guide's project (`project=getting-started file=...`). */
function referenceBlocksOfTheGuide(): Array<Block & { page: string }> {
  const reference = path.join(repositoryDir, 'docs', 'reference');
  return fs.readdirSync(reference).flatMap((page) =>
    codeBlocks(fs.readFileSync(path.join(reference, page), 'utf8'))
      .filter((b) => b.info.includes('project=getting-started'))
      .map((b) => ({ ...b, page: `reference/${page}` })),
  );
}

test("the guide has under ten commands, and its files (and the reference pages') are create-rest-uws's template", (t) => {
  const blocks = codeBlocks(fs.readFileSync(guideFile, 'utf8'));
  const commands = blocks.filter((b) => b.lang === 'sh').flatMap((b) => b.body.trim().split('\n'));
  t.true(commands.length < 10, `${commands.length} commands: ${commands.join(' | ')}`);
  const files = [...blocks.map((b) => ({ ...b, page: 'getting-started.md' })), ...referenceBlocksOfTheGuide()]
    .map((b) => ({ ...b, name: b.info.find((i) => i.startsWith('file='))?.slice('file='.length) }))
    // A reference page may add a file of its own to the guide's project (testing.md's test/inject.test.ts).
    .filter(
      (b) => b.name !== undefined && (b.page === 'getting-started.md' || fs.existsSync(path.join(templateDir, b.name))),
    );
  t.true(files.length >= 7);
  for (const block of files) {
    t.is(
      block.body,
      fs.readFileSync(path.join(templateDir, block.name!), 'utf8'),
      `${block.name} (docs/${block.page} line ${block.line}) is the template's ${block.name}`,
    );
  }
});

test('following the guide gives a running, tested API', async (t) => {
  t.timeout(240_000);
  const workspace = temporaryFolder('getting-started');
  const servers: ChildProcess[] = [];
  try {
    const { tarball } = await packFramework(workspace);
    const create = await packWorkspace('create-rest-uws', workspace);
    // Chosen when the server starts, not before: a port picked minutes earlier may meanwhile be some connection's
    // local port (npm's, the tests' own), and then nothing can listen on it.
    let port = GUIDE_PORT;
    const asRun = (text: string) =>
      text
        .split(`:${GUIDE_PORT}`)
        .join(`:${port}`)
        .replace(
          /^npm create rest-uws@latest (\S+)$/m,
          `npm exec --yes --package=${create.tarball} -- create-rest-uws $1 --rest-uws ${tarball}`,
        );
    const env = { PORT: port, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
    const usePort = (chosen: string) => {
      port = chosen;
      env.PORT = chosen;
    };
    const home = path.join(workspace, 'reader');
    fs.mkdirSync(home);
    let cwd = home;
    let lastOutput: string | undefined;
    let lastCommand = '';

    for (const block of codeBlocks(fs.readFileSync(guideFile, 'utf8'))) {
      const where = `guide line ${block.line}`;
      const file = block.info.find((i) => i.startsWith('file='));
      if (file) {
        const name = file.slice('file='.length);
        t.is(fs.readFileSync(path.join(cwd, name), 'utf8'), block.body, `${where}: the project's ${name} is as shown`);
      } else if (block.lang === 'sh' && block.info.includes('keep-running')) {
        usePort(String(await freePort()));
        const server = spawn('bash', ['-c', `exec ${asRun(block.body.trim())}`], {
          cwd,
          env: cleanEnvironment(env),
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        });
        servers.push(server);
        lastCommand = block.body.trim();
        lastOutput = await waitForOutput(server, /listening on /, 30_000, where);
      } else if (block.lang === 'sh') {
        lastCommand = block.body.trim();
        const marker = path.join(workspace, 'cwd');
        const result = await run(
          'bash',
          ['-e', '-c', `${asRun(block.body)}\npwd > ${JSON.stringify(marker)}`],
          cwd,
          env,
          180_000,
        );
        t.is(result.code, 0, `${where}: ${lastCommand}\n${result.output}`);
        if (result.code !== 0) return;
        cwd = fs.readFileSync(marker, 'utf8').trim();
        lastOutput = result.stdout;
      } else if (block.lang === 'text') {
        t.not(lastOutput, undefined, `${where}: an output block follows a command`);
        const expected = asRun(block.body);
        if (block.info.includes('excerpt')) {
          for (const line of expected.trim().split('\n'))
            t.true(lastOutput!.includes(line), `${where}: "${line}" in the output of ${lastCommand}:\n${lastOutput}`);
        } else {
          t.is(lastOutput!.trim(), expected.trim(), `${where}: output of ${lastCommand}`);
        }
      }
    }
    t.true(cwd.endsWith('hello-api'), 'the guide worked in its project folder');
    t.is(servers.length, 1, 'the guide started the server');
  } finally {
    // Stop the server and the npm process group around it by their own ids.
    for (const server of servers)
      if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGINT');
    await Promise.all(
      servers.map((s) =>
        s.exitCode === null && s.signalCode === null ? new Promise((r) => s.once('exit', r)) : undefined,
      ),
    );
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});

/** Collects a child's output until `pattern` appears; fails on exit or timeout. */
function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs: number, where: string): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${where}: no ${pattern} within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${where}: exited with ${code} before ${pattern}:\n${output}`));
    });
  });
}
