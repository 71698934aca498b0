// What the gateway client tests share: the command line, the checks and their tally, the gateway
// as a child process (its access log kept for a failure's report), and child processes with a
// timeout.
import { spawn } from 'node:child_process';
import readline from 'node:readline';

/// `--name value` pairs of the command line.
export const commandLine = () => Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) => (
  a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));

/// The last `lines` lines of a text.
export const tail = (text, lines = 40) => String(text ?? '').split('\n').slice(-lines).join('\n');

export const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/// Checks and their tally; `report()` prints it and is the exit status. A check's detail (printed
/// when it fails) may be a function, called only then.
export function checker() {
  let passed = 0;
  const failures = [];
  return {
    check(label, ok, detail = '') {
      if (ok) passed++;
      else {
        failures.push(label);
        const text = typeof detail === 'function' ? detail() : detail;   // a costly detail: only on failure
        console.log(`FAIL ${label}${text ? `: ${String(text).slice(0, 2000)}` : ''}`);
      }
      return ok;
    },
    get failed() { return failures.length; },
    report() {
      console.log(`${passed} passed, ${failures.length} failed`);
      return failures.length === 0 && passed > 0 ? 0 : 1;   // a run that checked nothing fails
    },
  };
}

/// toolstream-gateway on an ephemeral loopback port in front of `upstream`; it exits by itself
/// after --exit-after. `log()` is its stderr (the access log) so far.
export async function startGateway(gatewayPath, upstream, extra = [], env = process.env) {
  const child = spawn(gatewayPath, ['--listen', '127.0.0.1:0', '--upstream', upstream, '--provider', 'openai_chat',
    '--exit-after', '900', '--upstream-timeout', '20000', ...extra], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let log = '';
  child.stderr.on('data', (d) => { log = (log + d).slice(-200000); });
  const line = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not start\n${log}`)), 20000);
    readline.createInterface({ input: child.stdout }).once('line', (l) => { clearTimeout(timer); resolve(l); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the gateway exited (${code})\n${log}`)); });
  });
  const port = /listening on 127\.0\.0\.1:(\d+)/.exec(line)?.[1];
  if (!port) throw new Error(`unexpected first line: ${line}`);
  return {
    origin: `http://127.0.0.1:${port}`,
    baseURL: `http://127.0.0.1:${port}/v1`,
    log: () => log,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
      child.once('exit', () => { clearTimeout(timer); resolve(); });
      child.kill('SIGTERM');
    }),
  };
}

/// Runs a program to its end or `timeoutMs` (then its process group is killed): its exit code,
/// stdout, stderr and whether it timed out.
export function runChild(command, args, { cwd, env, timeoutMs, input = '' }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => { stdout = (stdout + d).slice(-1000000); });
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-1000000); });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    const kill = (signal) => { try { process.kill(-child.pid, signal); } catch { /* gone */ } };
    const timer = setTimeout(() => {
      timedOut = true;
      kill('SIGTERM');
      setTimeout(() => kill('SIGKILL'), 5000).unref();
    }, timeoutMs);
    child.once('error', (e) => { stderr += `\nspawn failed: ${e.message}`; });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      kill('SIGKILL');   // what it left running in its group
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}
