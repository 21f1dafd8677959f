import { readFileSync } from 'node:fs'
import { basename } from 'node:path'

/**
 * Stopping a server that an npm script started (`npm start`, `npx cloudplane serve`): npm hands
 * SIGTERM and SIGINT to the process it spawned, which is `sh -c <script>`, not this one. The
 * shell dies of SIGTERM without passing it on, leaving this process re-parented and holding the
 * port; a SIGINT it keeps to itself until its child (this process) exits, so nothing stops at all.
 * So the server watches that shell: the shell or npm gone, or the shell woken while it only waits
 * for us, means a stop was asked for. See docs/decisions.md#stopping-under-npm.
 */

const POLL_MS = 200
/** A poll this late, with little CPU spent, means this process did not run: stopped, frozen, suspended. */
const LATE_MS = 1000
/** After such a pause, wake-ups of the shell are the pause's own (SIGCHLD, the freezer), not a stop. */
const SETTLE_MS = 1000

const SHELLS = new Set(['sh', 'dash', 'bash', 'ash', 'ksh', 'mksh', 'zsh', 'busybox'])
/** One command and its arguments: the shell's only child is then this process. */
const SIMPLE_COMMAND = /^[^;&|<>()`$\n]+$/

export type ScriptParent =
  /** npm itself (a script that `exec`s): it passes signals on; watch only that it stays. */
  | { kind: 'npm' }
  /** The shell npm runs the script in; `wakes` when the script is one command, so its wake-ups are ours. */
  | { kind: 'shell'; wakes: boolean }

/** The arguments a process was started with, from /proc (Linux); undefined elsewhere or if gone. */
function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
  } catch {
    return undefined
  }
}

/**
 * A process's parent, and how often it has been switched out: a process blocked in `wait` counts
 * one more each time something (a signal) wakes it.
 */
function processStatus(pid: number): { ppid: number; switches: number } | undefined {
  let status: string
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return undefined
  }
  const ppid = /^PPid:\s+(\d+)$/m.exec(status)?.[1]
  const voluntary = /^voluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1]
  const forced = /^nonvoluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1]
  if (ppid === undefined || voluntary === undefined || forced === undefined) return undefined
  return { ppid: Number(ppid), switches: Number(voluntary) + Number(forced) }
}

/**
 * Whether the parent is what npm started to run a script: npm (`exec` in the script) or
 * `sh -c <script> [args]`. npm sets npm_lifecycle_script to the script (for `npx`, the bin's name).
 */
export function npmScriptParent(env: NodeJS.ProcessEnv, ppid: number): ScriptParent | undefined {
  const script = env.npm_lifecycle_script
  if (!script) return undefined
  const parent = commandLine(ppid)
  if (parent === undefined) return undefined
  if (/^npm\b/.test(parent[0] ?? '')) return { kind: 'npm' }
  const [shell = '', flag, command] = parent
  if (!SHELLS.has(basename(shell)) || flag !== '-c' || !command?.startsWith(script)) return undefined
  return { kind: 'shell', wakes: SIMPLE_COMMAND.test(script) }
}

export interface ScriptWatch {
  /** Called once when the script's process goes away or is signalled; may be replaced any time. */
  onStop: (reason: string) => void
  stop(): void
}

/**
 * Calls `onStop` once the npm script's process goes away or, for a shell, once npm does (a SIGKILL
 * leaves the shell waiting) or the shell wakes up. A wake-up is
 * acted on only when two polls in a row see it and this process did not pause around them: being
 * stopped and continued (Ctrl-Z, a debugger) or frozen (a suspend, `docker pause`) wakes the shell
 * too, and is no request to stop.
 */
export function watchNpmScript(
  parent: ScriptParent,
  onStop: (reason: string) => void,
  ppid: number = process.ppid,
): ScriptWatch {
  const shell = parent.kind === 'shell' ? processStatus(ppid) : undefined
  const npmPid = shell?.ppid
  let baseline = parent.kind === 'shell' && parent.wakes ? shell?.switches : undefined
  let last = { wall: Date.now(), tick: performance.now(), cpu: cpuMs() }
  let settleUntil = 0
  let seen = false
  const pause = () => {
    settleUntil = performance.now() + SETTLE_MS
    seen = false
  }
  const poll = () => {
    if (process.ppid !== ppid) {
      finish(parent.kind === 'npm' ? 'npm exited' : "the npm script's shell exited")
      return
    }
    // A late poll with little CPU time spent meanwhile: this process did not run (a busy event
    // loop spends it). The wall clock also moves across a suspend, which the monotonic one skips.
    const now = { wall: Date.now(), tick: performance.now(), cpu: cpuMs() }
    const elapsed = Math.max(now.wall - last.wall, now.tick - last.tick)
    if (elapsed > POLL_MS + LATE_MS && now.cpu - last.cpu < elapsed / 2) pause()
    last = now
    if (npmPid === undefined) return
    const status = processStatus(ppid)
    if (status === undefined) return
    if (status.ppid !== npmPid) {
      finish('npm exited')
      return
    }
    if (baseline === undefined) return
    const count = status.switches
    if (now.tick < settleUntil || count === baseline) {
      baseline = count
      seen = false
    } else if (!seen) {
      seen = true
    } else {
      finish("the npm script's shell was signalled")
    }
  }
  const timer = setInterval(poll, POLL_MS)
  timer.unref()
  process.on('SIGCONT', pause)
  const watch: ScriptWatch = { onStop, stop }
  function stop(): void {
    clearInterval(timer)
    process.removeListener('SIGCONT', pause)
  }
  function finish(reason: string): void {
    stop()
    watch.onStop(reason)
  }
  return watch
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
