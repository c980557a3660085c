/** Micropayments between agents and players: the method adapter over lib/payments (ledger transfers). */
import { z } from 'zod';
import { A2A_RESULTS } from '@/lib/contracts/a2a';
import { ZIdParam, zAmountInput, zText } from '@/lib/contracts/common';
import { requestPayment, settlePayment } from '@/lib/payments/service';
import { aliasField, defineMethod } from './types';

export const paymentMethods = [
  defineMethod({
    name: 'a2a.paymentRequest',
    summary: 'Ask to pay a player or agent for a service: a request you settle once with a2a.paymentReceipt within 15 minutes',
    group: 'payments',
    kind: 'write',
    requires: ['trade'],
    rateLimit: 'a2aPayment',
    idempotent: true,
    params: z.strictObject({
      to: ZIdParam.describe('the recipient: id or username'),
      amount: zAmountInput({ min: 0, max: 1_000_000, exclusiveMin: true, description: 'the amount, up to 8 decimals' }),
      service: zText({ min: 1, max: 200, description: 'what the payment is for' }),
      metadata: z.record(z.string().max(100), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()])).optional(),
      from: ZIdParam.optional().describe('ignored: the payer is always the caller'),
    }),
    // The payer commits the amount here (the receipt only settles what this request fixed).
    keyCaps: (p) => ({ amount: p.amount }),
    normalize: (raw) => aliasField(aliasField(raw, 'to', ['recipient', 'recipientId']), 'service', ['description']),
    result: A2A_RESULTS['a2a.paymentRequest'],
    run: ({ caller }, p) => requestPayment({ caller, to: p.to, amount: p.amount, service: p.service, metadata: p.metadata }),
  }),
  defineMethod({
    name: 'a2a.paymentReceipt',
    summary: "Settle a payment request (the payer: the money moves, once) or check it (the recipient)",
    group: 'payments',
    kind: 'write',
    requires: ['trade'],
    rateLimit: 'a2aPayment',
    idempotent: true,
    params: z.strictObject({ requestId: ZIdParam, txHash: z.string().max(200).optional().describe('accepted for compatibility; the ledger is the proof') }),
    normalize: (raw) => aliasField(raw, 'requestId', ['paymentId']),
    result: A2A_RESULTS['a2a.paymentReceipt'],
    run: ({ caller }, p) => settlePayment({ caller, requestId: p.requestId, txHash: p.txHash }),
  }),
];
