/**
 * The goals of `npm run bench`, collected as the cases run and printed together at the end, each
 * as met or missed with its median and spread over the rounds.
 */

export interface Spread {
  median: number
  min: number
  max: number
  /** Rounds that gave a figure (a sample that failed twice gives none). */
  n: number
}

export interface Goal {
  name: string
  /** What is measured, e.g. "ratio to ceiling" or "PostgreSQL / SQLite". */
  measure: string
  value: Spread
  /** met when value.median >= target (at least) or < target (below). */
  kind: 'at least' | 'below'
  target: number
  unit: 'percent' | 'times' | 'ms'
  note?: string
}

const goals: Goal[] = []

export function addGoal(goal: Goal): Goal {
  goals.push(goal)
  return goal
}

export function isMet(goal: Goal): boolean {
  if (goal.value.n === 0 || !Number.isFinite(goal.value.median)) return false
  return goal.kind === 'at least' ? goal.value.median >= goal.target : goal.value.median < goal.target
}

/** Median and range of a set of figures (NaN-free); empty gives NaN with n = 0. */
export function spreadOf(values: number[]): Spread {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b)
  if (v.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 }
  const mid = Math.floor(v.length / 2)
  const median = v.length % 2 === 1 ? (v[mid] as number) : ((v[mid - 1] as number) + (v[mid] as number)) / 2
  return { median, min: v[0] as number, max: v.at(-1) as number, n: v.length }
}

export function formatValue(value: number, unit: Goal['unit']): string {
  if (!Number.isFinite(value)) return 'n/a'
  if (unit === 'percent') return `${(value * 100).toFixed(1)}%`
  if (unit === 'times') return `${value.toFixed(2)}x`
  return `${value.toFixed(value < 10 ? 2 : 0)} ms`
}

export function formatSpread(s: Spread, unit: Goal['unit']): string {
  return `${formatValue(s.median, unit)} (${formatValue(s.min, unit)}–${formatValue(s.max, unit)}, n=${s.n})`
}

/** Prints every goal as met or missed; returns whether all were met. */
export function printGoals(): boolean {
  const lines = [
    '### Goals',
    '',
    '| goal | measure | median (min–max, rounds) | target | |',
    '|---|---|---|---|---|',
  ]
  let allMet = true
  for (const g of goals) {
    const met = isMet(g)
    allMet &&= met
    const target = `${g.kind === 'at least' ? '>=' : '<'} ${formatValue(g.target, g.unit)}`
    lines.push(
      `| ${g.name} | ${g.measure} | ${formatSpread(g.value, g.unit)} | ${target} | ${met ? 'met' : 'MISSED'}${g.note ? ` (${g.note})` : ''} |`,
    )
  }
  if (goals.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`)
  return allMet
}
