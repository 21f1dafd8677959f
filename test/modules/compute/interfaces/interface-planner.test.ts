import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ErrorCollector } from '../../../../src/common/errors.ts'
import {
  checkRemovals,
  matchExisting,
  planVpcFields,
  startPlan,
} from '../../../../src/modules/compute/interfaces/interface-planner.ts'
import type { InterfaceRow } from '../../../../src/modules/compute/interfaces/interfaces.table.ts'

const row = (over: Partial<InterfaceRow>): InterfaceRow => ({
  id: 1,
  config_id: 1,
  instance_id: 1,
  position: 0,
  purpose: 'public',
  label: null,
  ipam_address: null,
  is_primary: false,
  active: false,
  vpc_id: null,
  subnet_id: null,
  ipv4_vpc: null,
  nat_1_1: null,
  ...over,
})

const field = (name: string) => name
const subnet = { id: 7, vpc_id: 3, region: 'us-iad', ipv4: '10.0.0.0/24' }
const noHoldings = { addresses: [], ranges: [] }

describe('interface planner', () => {
  it('keeps an existing interface only at the same slot with the same identity', () => {
    const publicRow = row({ id: 1 })
    const vpcRow = row({ id: 2, position: 1, purpose: 'vpc', subnet_id: 7, active: true })
    const { keeps, removed } = matchExisting(
      [publicRow, vpcRow],
      [{ purpose: 'public' }, { purpose: 'vpc', subnet_id: 8 }],
    )
    assert.deepEqual(keeps, [publicRow, null])
    assert.deepEqual(removed, [vpcRow])
    const errors = new ErrorCollector()
    checkRemovals(removed, 'interfaces', errors)
    assert.deepEqual(errors.errors, [
      { reason: 'An active interface cannot be removed; shut the Compute down first', field: 'interfaces' },
    ])
  })

  it('reports the fields a purpose does not take', () => {
    const errors = new ErrorCollector()
    const plan = startPlan({ purpose: 'vlan', label: 'bad label!', primary: true }, null, field, errors)
    assert.deepEqual(
      errors.errors.map((e) => e.field),
      ['label', 'primary'],
    )
    assert.equal(plan.label, 'bad label!')
  })

  it('gives a new vpc interface the first assignable address and keeps the NAT of a continued one', () => {
    const errors = new ErrorCollector()
    const fresh = startPlan({ purpose: 'vpc', subnet_id: 7 }, null, field, errors)
    planVpcFields(fresh, { purpose: 'vpc', subnet_id: 7 }, subnet, noHoldings, '192.0.2.10', field, errors)
    assert.equal(fresh.ipv4_vpc, '10.0.0.2')
    assert.equal(fresh.nat_1_1, null)
    assert.deepEqual(fresh.ranges, [])

    const keep = row({ purpose: 'vpc', subnet_id: 7, ipv4_vpc: '10.0.0.9', nat_1_1: '192.0.2.10' })
    const continued = startPlan({ purpose: 'vpc', subnet_id: 7 }, keep, field, errors)
    planVpcFields(
      continued,
      { purpose: 'vpc', subnet_id: 7 },
      subnet,
      noHoldings,
      '192.0.2.10',
      field,
      errors,
    )
    assert.equal(continued.ipv4_vpc, '10.0.0.9')
    assert.equal(continued.nat_1_1, '192.0.2.10')
    assert.equal(continued.ranges, null)
    assert.deepEqual(errors.errors, [])
  })
})
