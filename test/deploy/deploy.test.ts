import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../core/config.js';
import { run } from '../support/python.js';

/**
 * The Helm chart and docker-compose.yml, checked by scripts/check-deploy.sh: helm lint and render, every rendered
 * manifest against the Kubernetes schemas (strict), the compose file against the compose specification. The
 * broken copies below prove that the check fails where it should, so it cannot pass by checking nothing.
 * The tools are installed by the script on first use (.ci/run installs them before the suites); the checks are
 * skipped, with a message, only when a registry cannot be reached.
 */
const root = new URL('../../', import.meta.url).pathname;
const script = join(root, 'scripts/check-deploy.sh');
const helmDir = join(root, 'deploy/helm');
const chart = join(helmDir, 'engram');

const install = await run('bash', [script, '--install-only'], {}, 900_000);
const skip = install.code === 3 ? `deployment check skipped, tools not installed:\n${install.out.slice(-500)}` : null;
if (skip) console.warn(skip);
else if (install.code !== 0) throw new Error(`scripts/check-deploy.sh --install-only failed:\n${install.out}`);

const scratch = mkdtempSync(join(tmpdir(), 'engram-deploy-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of deploy/helm with `edit` applied, checked; resolves to the script's exit code and output. */
async function checkBrokenChart(name: string, edit: (chartCopy: string) => void) {
  const copy = join(scratch, name);
  cpSync(helmDir, copy, { recursive: true });
  edit(join(copy, 'engram'));
  return run('bash', [script], { ENGRAM_DEPLOY_CHART: join(copy, 'engram') });
}

function replaceIn(file: string, from: string, to: string) {
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

describe('the chart and the service agree', () => {
  it('values.schema.json accepts exactly the variables core/config.ts reads, less those the chart or image sets', () => {
    const schema = JSON.parse(readFileSync(join(chart, 'values.schema.json'), 'utf8'));
    const shared: string[] = schema.properties.config.propertyNames.enum;
    const secret: string[] = schema.properties.secretEnv.propertyNames.enum;
    const worker: string[] = schema.properties.worker.properties.config.propertyNames.enum;
    // Set by the templates (RUN_WORKERS, PORT, WORKER_METRICS_PORT), by the image (HOST, DATA_DIR, CACHE_DIR), or
    // read only by the embedded mode (PIPELINE_THREADS, PIPELINE_NICE, VECTOR_GRAPH_MIN_ROWS).
    const owned = ['RUN_WORKERS', 'PORT', 'WORKER_METRICS_PORT', 'HOST', 'DATA_DIR', 'CACHE_DIR', 'PIPELINE_THREADS', 'PIPELINE_NICE', 'VECTOR_GRAPH_MIN_ROWS'];
    const all = [...shared, ...secret, ...worker, ...owned];
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual(Object.keys(configSchema.shape).sort());
    expect(secret).toEqual(expect.arrayContaining(['REDIS_URL', 'MONGODB_URL', 'ELASTICSEARCH_URL', 'ADMIN_CREDENTIALS', 'OPENAI_API_KEY']));
  });

  it('probes the health routes the API serves and runs the entry points the image builds', () => {
    const templates = readdirSync(join(chart, 'templates')).map((f) => readFileSync(join(chart, 'templates', f), 'utf8')).join('\n');
    const values = readFileSync(join(chart, 'values.yaml'), 'utf8');
    const health = readFileSync(join(root, 'api/routes/health/router.ts'), 'utf8');
    expect(templates).toContain('path: /healthz');
    expect(templates).toContain('path: {{ .Values.api.readinessPath }}');
    expect(values).toContain('readinessPath: /readyz');
    for (const route of ['/healthz', '/readyz']) expect(health).toContain(`'${route}'`);
    const compose = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
    for (const entry of ['dist/api/main.js', 'dist/workers/main.js']) {
      expect(templates).toContain(`"${entry}"`);
      expect(compose).toContain(`"${entry}"`);
    }
  });
});

describe.skipIf(skip)('scripts/check-deploy.sh', () => {
  it('passes the chart (default, production and variant values) and docker-compose.yml', async () => {
    const result = await run('bash', [script]);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/ok {3}default: \d+ manifests valid against Kubernetes 1\.30\.0 \(.*Deployment x2.*HorizontalPodAutoscaler x1.*PodDisruptionBudget x2/);
    expect(result.out).toMatch(/ok {3}values-production: \d+ manifests valid/);
    expect(result.out).toMatch(/ok {3}variant: \d+ manifests valid/);
    expect(result.out).toContain('ok   docker-compose.yml: valid against the compose specification');
    expect(result.out).toContain('check-deploy: passed');
  }, 180_000);

  it('fails on a field Kubernetes does not know', async () => {
    const result = await checkBrokenChart('unknown-field', (copy) =>
      replaceIn(join(copy, 'templates/api-deployment.yaml'), 'readinessProbe:', 'readinessProbes:'),
    );
    expect(result.code, result.out).toBe(1);
    expect(result.out).toContain("'readinessProbes' was unexpected");
    expect(result.out).toContain('check-deploy: failed');
  }, 180_000);

  it('fails on a value of the wrong type', async () => {
    const result = await checkBrokenChart('wrong-type', (copy) =>
      replaceIn(join(copy, 'templates/api-hpa.yaml'), 'averageUtilization: {{ .Values.api.autoscaling.targetCPUUtilizationPercentage }}', 'averageUtilization: "70%"'),
    );
    expect(result.code, result.out).toBe(1);
    expect(result.out).toMatch(/did not validate for resource horizontalpodautoscaler.*'70%' is not of type 'integer'/);
  }, 180_000);

  it('fails on a kind it has no schema for, instead of passing it unchecked', async () => {
    const result = await checkBrokenChart('unknown-kind', (copy) =>
      writeFileSync(join(copy, 'templates/servicemonitor.yaml'), 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: engram\nspec: {}\n'),
    );
    expect(result.code, result.out).toBe(1);
    expect(result.out).toContain("Couldn't find schema for kind ServiceMonitor");
  }, 180_000);

  it('fails when a backend URL is missing', async () => {
    const result = await checkBrokenChart('no-redis', (copy) => replaceIn(join(copy, 'values.yaml'), 'REDIS_URL: redis://redis:6379', 'REDIS_URL: ""'));
    expect(result.code, result.out).toBe(1);
    expect(result.out).toContain('secretEnv.REDIS_URL is required');
  }, 180_000);

  it('fails on a variable name the service does not read', async () => {
    const result = await checkBrokenChart('misspelt', (copy) =>
      replaceIn(join(copy, 'values.yaml'), 'RATE_LIMIT_PER_SECOND: "50"', 'RATE_LIMIT_PER_SEC: "50"'),
    );
    expect(result.code, result.out).toBe(1);
    expect(result.out).toContain("invalid propertyName 'RATE_LIMIT_PER_SEC'");
  }, 180_000);

  it('fails on a compose file that breaks the compose specification', async () => {
    const compose = join(scratch, 'docker-compose.yml');
    writeFileSync(compose, readFileSync(join(root, 'docker-compose.yml'), 'utf8').replace('interval: 10s\n      retries: 5', 'interval: 10s\n      retrys: 5'));
    const result = await run('bash', [script], { ENGRAM_DEPLOY_COMPOSE: compose });
    expect(result.code, result.out).toBe(1);
    expect(result.out).toContain('retrys');
    expect(result.out).toContain('FAIL docker-compose.yml against the compose specification');
  }, 180_000);
});
