import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { SECURITY_QUESTIONS } from '../../../../src/catalogue/security-questions.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, createUser, type TestUser } from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'

const answers = (...pairs: Array<[number, string]>) => ({
  security_questions: pairs.map(([question_id, response]) => ({ question_id, response })),
})

describe('security questions', () => {
  const api = useTestApp()

  const list = (who: TestUser) =>
    api.request({ method: 'GET', url: '/v4/profile/security-questions', headers: who.headers })
  const answer = (who: TestUser, payload: unknown) =>
    api.request({
      method: 'POST',
      url: '/v4/profile/security-questions',
      headers: who.headers,
      payload: payload as object,
    })

  it('lists the whole catalogue of 19 questions, unanswered at first', async () => {
    const owner = await createAccount(api)
    const res = await list(owner)
    assert.equal(res.status, 200)
    assert.equal(res.body.security_questions.length, 19)
    assert.deepEqual(res.body.security_questions[0], {
      id: 1,
      question: 'What city were you born in?',
      response: null,
    })
    assert.deepEqual(
      res.body.security_questions.map((q: { id: number; question: string }) => ({
        id: q.id,
        question: q.question,
      })),
      SECURITY_QUESTIONS,
    )
    assert.ok(res.body.security_questions.every((q: { response: null }) => q.response === null))
  })

  it('answers three questions and shows the user their answers', async () => {
    const owner = await createAccount(api)
    const res = await answer(owner, answers([3, 'Franz Schubert'], [11, 'Philly'], [17, 'Taxi']))
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(res.body, {
      security_questions: [
        {
          question_id: 3,
          response: 'Franz Schubert',
          security_question: 'What was the first concert you attended?',
        },
        { question_id: 11, response: 'Philly', security_question: 'Name of your favorite city?' },
        {
          question_id: 17,
          response: 'Taxi',
          security_question: 'What is the name of the hospital you were born in?',
        },
      ],
    })
    const after = await list(owner)
    const answered = after.body.security_questions.filter(
      (q: { response: string | null }) => q.response !== null,
    )
    assert.deepEqual(answered, [
      { id: 3, question: 'What was the first concert you attended?', response: 'Franz Schubert' },
      { id: 11, question: 'Name of your favorite city?', response: 'Philly' },
      { id: 17, question: 'What is the name of the hospital you were born in?', response: 'Taxi' },
    ])
  })

  it('overwrites earlier answers and resets questions left out to null', async () => {
    const owner = await createAccount(api)
    await answer(owner, answers([1, 'Springfield'], [2, 'Marge'], [3, 'Beethoven']))
    await answer(owner, answers([3, 'Mozart'], [4, 'Saab 900'], [5, 'Paris']))
    const res = await list(owner)
    const byId = new Map(
      res.body.security_questions.map((q: { id: number; response: string | null }) => [q.id, q.response]),
    )
    assert.equal(byId.get(1), null)
    assert.equal(byId.get(2), null)
    assert.equal(byId.get(3), 'Mozart')
    assert.equal(byId.get(4), 'Saab 900')
    assert.equal(byId.get(5), 'Paris')
  })

  it('stores answers sealed, never in plain text, and only for their own user', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: true })
    await answer(owner, answers([6, 'Oxford'], [7, 'Planetarium'], [8, 'Mrs Krabappel']))
    const rows = await api.db
      .selectFrom('security_answers')
      .select(['response_sealed'])
      .where('user_id', '=', owner.user.id)
      .execute()
    assert.equal(rows.length, 3)
    for (const row of rows) {
      for (const plain of ['Oxford', 'Planetarium', 'Krabappel'])
        assert.ok(!row.response_sealed.includes(plain))
    }
    const theirs = await list(member)
    assert.ok(theirs.body.security_questions.every((q: { response: null }) => q.response === null))
  })

  it('refuses anything but exactly three answers', async () => {
    const owner = await createAccount(api)
    for (const payload of [
      answers(),
      answers([1, 'abc'], [2, 'abc']),
      answers([1, 'abc'], [2, 'abc'], [3, 'abc'], [4, 'abc']),
    ]) {
      const res = await answer(owner, payload)
      assert.equal(res.status, 400)
      assert.deepEqual(res.body, {
        errors: [{ field: 'security_questions', reason: 'You must answer exactly 3 security questions' }],
      })
    }
  })

  it('refuses a question answered twice and unknown questions', async () => {
    const owner = await createAccount(api)
    const twice = await answer(owner, answers([1, 'abc'], [2, 'def'], [1, 'ghi']))
    assert.equal(twice.status, 400)
    assert.deepEqual(twice.body, {
      errors: [
        {
          field: 'security_questions[2].question_id',
          reason: 'Each security question may be answered only once',
        },
      ],
    })
    const unknown = await answer(owner, answers([1, 'abc'], [20, 'def'], [0, 'ghi']))
    assert.deepEqual(unknown.body, {
      errors: [
        { field: 'security_questions[1].question_id', reason: 'Not a valid security question' },
        { field: 'security_questions[2].question_id', reason: 'Not a valid security question' },
      ],
    })
  })

  it('needs answers of 3 to 17 characters', async () => {
    const owner = await createAccount(api)
    const res = await answer(owner, answers([1, 'ab'], [2, 'x'.repeat(18)], [3, 'x'.repeat(17)]))
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [
        { field: 'security_questions[0].response', reason: 'response must be 3-17 characters' },
        { field: 'security_questions[1].response', reason: 'response must be 3-17 characters' },
      ],
    })
    const shape = await answer(owner, { security_questions: [{ question_id: '1', response: 5 }] })
    assert.equal(shape.status, 400)
    assert.deepEqual(
      shape.body.errors.map((e: { field: string }) => e.field),
      ['security_questions[0].question_id', 'security_questions[0].response'],
    )
  })

  it('keeps earlier answers when a request is refused', async () => {
    const owner = await createAccount(api)
    await answer(owner, answers([1, 'Springfield'], [2, 'Marge'], [3, 'Beethoven']))
    await answer(owner, answers([4, 'abc'], [4, 'def'], [5, 'ghi']))
    const res = await list(owner)
    assert.equal(res.body.security_questions[0].response, 'Springfield')
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/profile/security-questions',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/security-questions' }),
    },
    {
      method: 'POST',
      route: '/v4/profile/security-questions',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 200,
      prepare: async () => ({
        url: '/v4/profile/security-questions',
        payload: answers([1, 'abc'], [2, 'def'], [3, 'ghi']),
      }),
    },
  ])
})
