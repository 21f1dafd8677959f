import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { countersOf } from '../../../plugins/db.ts'
import { isEmulatorExempt } from '../exempt-paths.ts'
import { FaultCache } from './fault-cache.ts'
import { sendStatusFault } from './fault-responses.ts'
import { FaultDice, type FaultRule, ruleMatches } from './fault-rules.ts'
import { claimFiring } from './faults.repository.ts'

/** The rule that fired on a request (the terminal one, else the last latency), for the journal. */
const firedRules = new WeakMap<FastifyRequest, number>()

export const faultRuleOf = (request: FastifyRequest): number | null => firedRules.get(request) ?? null

/** Told of each request whose connection a rule dropped: no answer goes out, so no onSend hook runs. */
export type DropListener = (request: FastifyRequest, reply: FastifyReply) => void
const dropListeners = new WeakMap<FastifyInstance, DropListener[]>()

/** Calls `listener` for every connection a fault rule drops on `app` (the journal records them). */
export function onDroppedConnection(app: FastifyInstance, listener: DropListener): void {
  const listeners = dropListeners.get(app) ?? []
  listeners.push(listener)
  dropListeners.set(app, listeners)
}

async function fires(app: FastifyInstance, dice: FaultDice, rule: FaultRule): Promise<boolean> {
  if (rule.probability < 1 && dice.draw(rule) >= rule.probability) return false
  return claimFiring(app.db, rule)
}

/**
 * Applies the fault rules to every request before its handler runs (an onRequest hook, after
 * authentication so that rules may name an account or a token): a faulted write changes nothing.
 * Latency rules delay and let the request go on; a status or a dropped connection ends it.
 */
export function installFaultHook(app: FastifyInstance, controlPrefix: string): FaultDice {
  const dice = new FaultDice()
  const cache = new FaultCache(app.db, dice)
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!app.readiness.ready) return
    const rules = await cache.rules(countersOf(request))
    if (rules.length === 0) return
    // As the client sent it (`/v4beta` is routed as `/v4`, routes.ts): a rule names what clients send.
    const path = request.originalUrl.split('?', 1)[0] ?? ''
    if (isEmulatorExempt(path, controlPrefix)) return
    const subject = {
      method: request.method,
      path,
      accountId: request.actor?.accountId ?? null,
      tokenId: request.actor?.tokenId ?? null,
    }
    for (const rule of rules) {
      if (!ruleMatches(rule, subject) || !(await fires(app, dice, rule))) continue
      firedRules.set(request, rule.id)
      const effect = rule.effect
      if (effect.kind === 'latency') {
        const span = effect.maxMs - effect.minMs
        await sleep(effect.minMs + (span > 0 ? Math.floor(dice.draw(rule) * (span + 1)) : 0))
        continue
      }
      if (effect.kind === 'status') return sendStatusFault(reply, effect, app.clock)
      if (effect.kind === 'drop') {
        reply.hijack()
        request.raw.socket?.destroy()
        for (const listener of dropListeners.get(app) ?? []) listener(request, reply)
        return reply
      }
    }
  })
  return dice
}
