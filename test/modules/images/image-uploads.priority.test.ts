import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { PassThrough } from 'node:stream'
import { describe, it } from 'node:test'
import { INSPECTION_NICE } from '../../../src/modules/images/image-inspection.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'
import { waitFor } from '../../helpers/wait-for.ts'
import { gz, putData, rawImage, startUpload } from './image-helpers.ts'

/** The fields of /proc/<pid>/stat after the command name. */
const statFields = (path: string): string[] => {
  const text = readFileSync(path, 'utf8')
  return text.slice(text.lastIndexOf(')') + 2).split(' ')
}

/** This process's children running the upload inspection. */
function inspectionProcesses(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return (
          Number(statFields(`/proc/${pid}/stat`)[1]) === process.pid &&
          readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('image-inspection.process')
        )
      } catch {
        return false // gone meanwhile
      }
    })
    .map(Number)
}

/** Each thread of the process: its name and its nice value. */
function threads(pid: number): Array<{ name: string; nice: number }> {
  return readdirSync(`/proc/${pid}/task`).map((tid) => ({
    name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(),
    nice: Number(statFields(`/proc/${pid}/task/${tid}/stat`)[16]),
  }))
}

describe('image upload: the inspection yields to the API', { skip: !existsSync('/proc/self/task') }, () => {
  const api = useTestApp()

  it('inflates and hashes in a child process whose every thread runs at the lower priority', async () => {
    const owner = await createAccount(api)
    const started = await startUpload(api, owner)
    const body = new PassThrough()
    const pending = putData(api, started.path, body)
    // Enough data that zlib has run on the child's thread pool, which must be lowered too.
    const data = gz(rawImage(16 * 1024 * 1024, 'priority'))
    body.write(data.subarray(0, data.length - 100))
    try {
      const pid = await waitFor(() => inspectionProcesses()[0], { message: 'the inspection process' })
      const seen = await waitFor(
        () => {
          const all = threads(pid)
          return all.some((t) => t.name.startsWith('libuv')) && all.every((t) => t.nice === INSPECTION_NICE)
            ? all
            : undefined
        },
        { message: () => `every thread at nice ${INSPECTION_NICE}: ${JSON.stringify(threads(pid))}` },
      )
      assert.ok(seen.length > 1)
      assert.ok(INSPECTION_NICE > 0)
    } finally {
      // The upload completes either way, so that the app can close.
      body.end(data.subarray(data.length - 100))
    }
    const res = await pending
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.status, 'available')
  })

  it('inspects every upload in one kept process, started again after it stopped', async () => {
    const owner = await createAccount(api)
    const upload = async (name: string) => {
      const started = await startUpload(api, owner)
      const res = await putData(api, started.path, gz(rawImage(1024 * 1024, name)))
      assert.equal(res.status, 200, JSON.stringify(res.body))
    }
    await upload('first')
    const [kept] = inspectionProcesses()
    assert.ok(kept !== undefined, 'the inspection process outlives its upload')
    await upload('second')
    // Starting a process per upload held the API thread until the child had started.
    assert.deepEqual(inspectionProcesses(), [kept])
    process.kill(kept, 'SIGKILL')
    // Gone once this process has reaped it, and so heard of its exit.
    await waitFor(() => !existsSync(`/proc/${kept}`), { message: 'the killed process to go' })
    await upload('after the kill')
    assert.equal(inspectionProcesses().length, 1)
  })
})
