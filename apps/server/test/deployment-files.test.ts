import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

/**
 * The container files of deploy/ (issue 52 item 4) against the code they start: they are not built
 * in CI (this machine pulls no base images, docs/OPERATIONS.md "Containers"), so these checks are
 * what catches a renamed script, a moved entry point, a lost USER or HEALTHCHECK, a typo in a
 * variable, or a secret written into a file.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions in order: comments dropped, `\` continuations joined. */
function dockerfileInstructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

const dockerfile = dockerfileInstructions(read('deploy/Dockerfile'));
const stages = dockerfile.filter((instruction) => instruction.keyword === 'FROM');
const lastFrom = dockerfile.lastIndexOf(stages[stages.length - 1] as Instruction);
const runtime = dockerfile.slice(lastFrom);
const rootPackage = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

/** The variables whose values are secrets: never written into the image or the compose file. */
const SECRET_VARIABLES = [
  'DATABASE_URL',
  'DATABASE_OWNER_URL',
  'AUDIT_CHECKPOINT_KEY',
  'METRICS_TOKEN',
  'SMTP_URL',
];

/** The variables config.ts reads (its zod schema's keys). */
function configVariables(): string[] {
  const source = read('apps/server/src/config.ts');
  const schema = source.slice(source.indexOf('const configSchema = z.object({'));
  return [...schema.slice(0, schema.indexOf('\n});')).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map(
    (match) => match[1] as string,
  );
}

describe('deploy/Dockerfile', () => {
  it('builds in one stage and runs from another, both on Node 22', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const nodeImage = dockerfile.find((instruction) => instruction.keyword === 'ARG')?.args;
    expect(nodeImage).toMatch(/^NODE_IMAGE=node:22[-.]/);
    for (const stage of stages) expect(stage.args).toMatch(/^\$\{NODE_IMAGE\}/);
    expect(stages[0]?.args).toMatch(/ AS build$/i);
  });

  it('copies only paths that exist, and runs only npm scripts and workspaces that exist', () => {
    for (const { keyword, args } of dockerfile) {
      if (keyword === 'COPY' && !args.startsWith('--from')) {
        const sources = args.split(/\s+/).slice(0, -1);
        for (const source of sources) {
          if (source === '.') continue;
          expect(fs.existsSync(path.join(root, source)), `COPY ${source}`).toBe(true);
        }
      }
      if (keyword === 'COPY' && args.startsWith('--from=build')) {
        const [, source = ''] = args.split(/\s+/);
        const file = source.replace(/^\/app\//, '');
        // The web app's build output is made by `npm run build` in the build stage; the rest is source.
        if (file === 'apps/web/dist') expect(rootPackage.scripts.build).toContain('@cdms/web');
        else expect(fs.existsSync(path.join(root, file)), `COPY --from=build ${source}`).toBe(true);
      }
      for (const match of args.matchAll(/npm run ([\w:-]+)/g)) {
        expect(rootPackage.scripts, `npm run ${match[1]}`).toHaveProperty(match[1] as string);
      }
      for (const match of args.matchAll(/--workspace (\S+)/g)) {
        const workspace = match[1] as string;
        const manifests = ['apps/server', 'apps/web', 'packages/contract', 'packages/study'].map(
          (folder) => JSON.parse(read(`${folder}/package.json`)).name,
        );
        expect(manifests, `--workspace ${workspace}`).toContain(workspace);
      }
    }
  });

  it('runs what `npm run serve` runs, as a user other than root', () => {
    // `serve` is "MALLOC_MMAP_THRESHOLD_=32768 node --max-old-space-size=192 apps/server/src/main.ts".
    const serve = rootPackage.scripts.serve?.split(/\s+/) ?? [];
    const nodeAt = serve.indexOf('node');
    const command = runtime.find((instruction) => instruction.keyword === 'CMD');
    expect(command && JSON.parse(command.args)).toEqual(serve.slice(nodeAt));
    for (const assignment of serve.slice(0, nodeAt)) {
      const [name, value] = assignment.split('=');
      expect(runtime.some((i) => i.keyword === 'ENV' && i.args.includes(`${name}=${value}`))).toBe(true);
    }
    expect(fs.existsSync(path.join(root, serve[serve.length - 1] as string))).toBe(true);

    const users = runtime.filter((instruction) => instruction.keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1]?.args ?? '';
    expect(['root', '0', '0:0']).not.toContain(user);
    expect(runtime.findIndex((i) => i.keyword === 'USER')).toBeLessThan(
      runtime.findIndex((i) => i.keyword === 'CMD'),
    );
  });

  it('checks its health on /health/ready, a route the server has', () => {
    const healthcheck = runtime.find((instruction) => instruction.keyword === 'HEALTHCHECK');
    expect(healthcheck?.args).toContain('/health/ready');
    expect(healthcheck?.args).toContain('fetch(');
    expect(read('apps/server/src/health/routes.ts')).toContain("'/health/ready'");
  });

  it('bakes no secret into the image', () => {
    for (const { keyword, args } of dockerfile) {
      if (keyword !== 'ENV' && keyword !== 'ARG') continue;
      for (const name of SECRET_VARIABLES)
        expect(args, `${keyword} ${args}`).not.toMatch(new RegExp(`\\b${name}=`));
      expect(args, `${keyword} ${args}`).not.toMatch(/PASSWORD|SECRET|TOKEN/i);
    }
    const ignored = read('.dockerignore').split('\n');
    for (const pattern of ['deploy/secrets', '.env', '.env.*', '**/node_modules', '.git']) {
      expect(ignored, `.dockerignore: ${pattern}`).toContain(pattern);
    }
  });
});

describe('deploy/compose.yaml and deploy/haproxy.cfg', () => {
  const compose = parseYaml(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, Record<string, unknown>>;
    secrets: Record<string, { file: string }>;
  };
  const services = compose.services;
  const appServices = Object.entries(services).filter(([, service]) =>
    String(service.image ?? '').startsWith('cdms:'),
  );
  const haproxy = read('deploy/haproxy.cfg');

  it('has PostgreSQL, HAProxy and two server processes built from deploy/Dockerfile', () => {
    expect(services.postgres?.image).toMatch(/^postgres:15/);
    expect(services.haproxy?.image).toMatch(/^haproxy:/);
    expect(appServices.map(([name]) => name)).toEqual(['app1', 'app2']);
    const builds = appServices.map(([, service]) => service.build).filter(Boolean) as {
      dockerfile: string;
    }[];
    expect(builds.map((build) => build.dockerfile)).toEqual(['deploy/Dockerfile']);
    // Every bind-mounted file or folder of deploy/ exists.
    for (const service of Object.values(services)) {
      for (const volume of (service.volumes ?? []) as string[]) {
        const source = volume.split(':')[0] ?? '';
        if (source.startsWith('./'))
          expect(fs.existsSync(path.join(root, 'deploy', source)), volume).toBe(true);
      }
    }
  });

  it('balances round robin over exactly the app services, checking /health/ready on the port they listen on', () => {
    expect(haproxy).toMatch(/^\s*balance roundrobin$/m);
    expect(haproxy).toMatch(/^\s*option httpchk GET \/health\/ready$/m);
    const servers = [...haproxy.matchAll(/^\s*server (\S+) (\S+):(\d+)/gm)].map((m) => `${m[2]}:${m[3]}`);
    const port = /PORT=(\d+)/.exec(runtime.map((i) => `${i.keyword} ${i.args}`).join('\n'))?.[1];
    expect(servers).toEqual(appServices.map(([name]) => `${name}:${port}`));
    const mounted = ((services.haproxy?.volumes ?? []) as string[]).find((volume) =>
      volume.startsWith('./haproxy.cfg:'),
    );
    expect(mounted).toBe('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });

  it('sets only variables the server reads, and takes every secret from a secret file', () => {
    const known = configVariables();
    expect(known).toContain('DATABASE_URL');
    const entrypoint = read('deploy/docker-entrypoint.sh');
    const fromFiles = /for name in ([A-Z_ ]+); do/.exec(entrypoint)?.[1]?.split(' ') ?? [];
    expect(fromFiles.sort()).toEqual([...SECRET_VARIABLES].sort());
    for (const [name, service] of appServices) {
      const environment = service.environment as Record<string, string>;
      for (const [variable, value] of Object.entries(environment)) {
        // AUDIT_CHECKPOINT_FILE is a variable of its own; other names ending in _FILE are VAR_FILE.
        const base = known.includes(variable) ? variable : variable.replace(/_FILE$/, '');
        expect(known, `${name}: ${variable}`).toContain(base);
        expect(SECRET_VARIABLES.includes(variable), `${name}: ${variable} must come from a file`).toBe(false);
        if (variable === base) continue;
        // VAR_FILE: a secret of this service, backed by a file under deploy/secrets/.
        expect(fromFiles, `${name}: ${variable}`).toContain(base);
        const secret = value.replace(/^\/run\/secrets\//, '');
        expect(service.secrets as string[], `${name}: ${variable}`).toContain(secret);
        expect(compose.secrets[secret]?.file, `secret ${secret}`).toMatch(/^\.\/secrets\//);
      }
    }
    const postgresSecrets = services.postgres?.secrets as string[];
    for (const secret of postgresSecrets) expect(compose.secrets[secret]?.file).toMatch(/^\.\/secrets\//);
    expect(read('deploy/postgres-init/10-cdms-roles.sh')).toContain('/run/secrets/cdms_app_password');
  });

  it('holds no password, key or token in any deployment file', () => {
    const files = [
      'deploy/Dockerfile',
      'deploy/compose.yaml',
      'deploy/haproxy.cfg',
      'deploy/docker-entrypoint.sh',
      'deploy/postgres-init/10-cdms-roles.sh',
    ];
    for (const file of files) {
      const text = read(file);
      // A connection URL with a password: postgres://user:password@host
      expect(text, file).not.toMatch(/postgres(ql)?:\/\/[^\s:/@]+:[^\s@]+@/);
      expect(text, file).not.toMatch(/(PASSWORD|SECRET|KEY|TOKEN)\s*[:=]\s*['"]?[A-Za-z0-9+/]{12,}/);
    }
    expect(read('.gitignore').split('\n')).toContain('deploy/secrets/');
  });
});

describe('deploy/docker-entrypoint.sh', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(
      'sh',
      [
        path.join(root, 'deploy/docker-entrypoint.sh'),
        'sh',
        '-c',
        // What the command sees: the variable, and whether the _FILE one is still set (it should not be).
        'printf %s "$DATABASE_URL|$DATABASE_URL_FILE"',
      ],
      {
        env: { PATH: process.env.PATH ?? '', ...env },
        encoding: 'utf8',
      },
    );

  it('turns VAR_FILE into VAR (without the trailing newline) and refuses both at once', () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-entrypoint-'));
    try {
      const file = path.join(directory, 'database_url');
      fs.writeFileSync(file, 'postgres://cdms_app@postgres:5432/cdms\n');
      const fromFile = run({ DATABASE_URL_FILE: file });
      expect(fromFile.status).toBe(0);
      expect(fromFile.stdout).toBe('postgres://cdms_app@postgres:5432/cdms|');

      const both = run({ DATABASE_URL_FILE: file, DATABASE_URL: 'postgres://other/cdms' });
      expect(both.status).toBe(2);
      expect(both.stderr).toContain('both DATABASE_URL and DATABASE_URL_FILE are set');

      const missing = run({ DATABASE_URL_FILE: path.join(directory, 'absent') });
      expect(missing.status).toBe(2);
      expect(run({}).stdout).toBe('|');
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});

/** HAProxy's own check of the file, where HAProxy is installed (CI's machine has it). */
const haproxyInstalled = spawnSync('haproxy', ['-v']).status === 0;
describe.skipIf(!haproxyInstalled)('deploy/haproxy.cfg by haproxy -c', () => {
  it('is a valid configuration', () => {
    // The app hosts resolve only inside compose: HAProxy warns about them and still says valid.
    const output = execFileSync('haproxy', ['-c', '-f', path.join(root, 'deploy/haproxy.cfg')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(output).toContain('Configuration file is valid');
  });
});
