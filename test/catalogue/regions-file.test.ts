import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import {
  loadRegionsFile,
  parseRegionCatalogue,
  RegionsFileError,
  SHIPPED_REGIONS,
} from '../../src/catalogue/regions-file.ts'

const region = (over: Record<string, unknown> = {}) => ({
  id: 'lab-ams',
  label: 'Amsterdam, NL',
  country: 'nl',
  capabilities: ['Computes', 'VPCs', 'Premium Plans'],
  resolvers: { ipv4: '10.0.0.53', ipv6: 'fd00::53' },
  ...over,
})

describe('operator region catalogue (REGIONS_FILE)', () => {
  const dirs: string[] = []
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true })
  })

  it('reads regions, defaults site_type, and derives availability when none is given', () => {
    const catalogue = parseRegionCatalogue({
      regions: [region(), region({ id: 'lab-fra', country: 'de', capabilities: ['Computes'] })],
    })
    assert.equal(catalogue.regions[0]?.site_type, 'core')
    assert.equal(catalogue.regions[0]?.status, 'ok')
    assert.equal(catalogue.availability.length, 26)
    assert.ok(
      catalogue.availability
        .filter((a) => a.region === 'lab-ams' && a.plan.startsWith('premium'))
        .every((a) => a.available),
    )
    assert.ok(catalogue.availability.filter((a) => a.region === 'lab-fra').every((a) => !a.available))
  })

  it('takes availability as given', () => {
    const catalogue = parseRegionCatalogue({
      regions: [region({ site_type: 'distributed' })],
      availability: [{ region: 'lab-ams', plan: 'premium4096.7', available: true }],
    })
    assert.equal(catalogue.regions[0]?.site_type, 'distributed')
    assert.deepEqual(catalogue.availability, [{ region: 'lab-ams', plan: 'premium4096.7', available: true }])
  })

  it('ships a valid catalogue, with availability derived for every region', () => {
    assert.equal(SHIPPED_REGIONS.regions.length, 25)
    assert.equal(SHIPPED_REGIONS.availability.length, 25 * 13)
  })

  it('names the first problem', () => {
    const cases: Array<[unknown, RegExp]> = [
      [[], /must hold a JSON object/],
      [{}, /regions must be a non-empty array/],
      [{ regions: [] }, /regions must be a non-empty array/],
      [{ regions: [region({ id: 'Lab 1' })] }, /regions\[0\]\.id must be lowercase/],
      [{ regions: [region({ country: 'NLD' })] }, /regions\[0\]\.country/],
      [{ regions: [region({ label: '' })] }, /regions\[0\]\.label must be a non-empty string/],
      [{ regions: [region({ capabilities: 'Computes' })] }, /regions\[0\]\.capabilities must be an array/],
      [{ regions: [region({ capabilities: ['VPCs', 'VPCs'] })] }, /capabilities has duplicates/],
      [{ regions: [region({ resolvers: { ipv4: '1.1.1.1' } })] }, /regions\[0\]\.resolvers\.ipv6/],
      [{ regions: [region(), region()] }, /regions\[1\]\.id "lab-ams" appears twice/],
      [
        { regions: [region({ status: 'outage' })] },
        /status is not part of the catalogue; set it with: cloudplane region status/,
      ],
      [{ regions: [region({ lable: 'typo' })] }, /regions\[0\]\.lable is not a known field/],
      [
        { regions: [region()], availability: [{ region: 'elsewhere', plan: 'p', available: true }] },
        /availability\[0\]\.region "elsewhere" is not a region/,
      ],
      [
        { regions: [region()], availability: [{ region: 'lab-ams', plan: 'p', available: 'yes' }] },
        /availability\[0\]\.available must be true or false/,
      ],
      [
        {
          regions: [region()],
          availability: [
            { region: 'lab-ams', plan: 'p', available: true },
            { region: 'lab-ams', plan: 'p', available: false },
          ],
        },
        /availability\[1\] repeats region "lab-ams" plan "p"/,
      ],
    ]
    for (const [document, message] of cases) {
      assert.throws(
        () => parseRegionCatalogue(document),
        (e: Error) => e instanceof RegionsFileError && message.test(e.message),
        JSON.stringify(document),
      )
    }
  })

  it('reports a missing file and invalid JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cloudplane-regions-'))
    dirs.push(dir)
    assert.throws(() => loadRegionsFile(join(dir, 'missing.json')), /cannot read .*missing\.json/)
    await writeFile(join(dir, 'bad.json'), '{"regions": [')
    assert.throws(() => loadRegionsFile(join(dir, 'bad.json')), /bad\.json is not valid JSON/)
    await writeFile(join(dir, 'good.json'), JSON.stringify({ regions: [region()] }))
    assert.equal(loadRegionsFile(join(dir, 'good.json')).regions.length, 1)
  })
})
