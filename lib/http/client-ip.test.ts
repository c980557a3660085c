/**
 * The rate-limit identity of an anonymous caller: a client may write any X-Forwarded-For or
 * X-Real-IP it likes, and none of it may choose the address we count against.
 */
import { describe, expect, it } from 'vitest';
import { clientIp, forwardedFor, SOCKET_ADDRESS_HEADER } from './client-ip';

const headers = (h: Record<string, string>) => new Headers({ [SOCKET_ADDRESS_HEADER]: '10.0.0.9', ...h });

describe('clientIp', () => {
  it('without TRUST_PROXY: the socket address, whatever X-Forwarded-For and X-Real-IP say', () => {
    const h = headers({ 'x-forwarded-for': '1.2.3.4, 5.6.7.8', 'x-real-ip': '9.9.9.9' });
    expect(clientIp(h, { trustProxy: 0 })).toBe('10.0.0.9');
    expect(clientIp(new Headers({ 'x-real-ip': '9.9.9.9' }), { trustProxy: 0 })).toBe('unknown');
  });

  it('TRUST_PROXY=1: the right-most entry, the one our proxy appended; a spoofed left part is never read', () => {
    expect(clientIp(headers({ 'x-forwarded-for': 'spoofed, real' }), { trustProxy: 1 })).toBe('real');
    expect(clientIp(headers({ 'x-forwarded-for': '203.0.113.5' }), { trustProxy: 1 })).toBe('203.0.113.5');
    // Repeated headers count as one list, in order.
    const repeated = new Headers({ [SOCKET_ADDRESS_HEADER]: '10.0.0.9' });
    repeated.append('x-forwarded-for', 'spoofed-1, spoofed-2');
    repeated.append('x-forwarded-for', 'real');
    expect(clientIp(repeated, { trustProxy: 1 })).toBe('real');
  });

  it('TRUST_PROXY=2: two hops from the right (a CDN in front of a load balancer)', () => {
    expect(clientIp(headers({ 'x-forwarded-for': 'spoofed, client, cdn' }), { trustProxy: 2 })).toBe('client');
    expect(clientIp(headers({ 'x-forwarded-for': 'client, cdn' }), { trustProxy: 2 })).toBe('client');
  });

  it('fewer entries than trusted hops, or none: the socket address (the header is not our proxies\')', () => {
    expect(clientIp(headers({ 'x-forwarded-for': 'only-one' }), { trustProxy: 2 })).toBe('10.0.0.9');
    expect(clientIp(headers({}), { trustProxy: 1 })).toBe('10.0.0.9');
    expect(clientIp(headers({ 'x-forwarded-for': ' , ,' }), { trustProxy: 1 })).toBe('10.0.0.9');
  });

  it('X-Real-IP only when configured as CLIENT_IP_HEADER; then X-Forwarded-For is not read', () => {
    const h = headers({ 'x-forwarded-for': 'spoofed, proxy-said', 'x-real-ip': '198.51.100.4' });
    expect(clientIp(h, { trustProxy: 1 })).toBe('proxy-said');
    expect(clientIp(h, { trustProxy: 1, clientIpHeader: 'x-real-ip' })).toBe('198.51.100.4');
    expect(clientIp(headers({ 'x-forwarded-for': 'a' }), { trustProxy: 0, clientIpHeader: 'x-real-ip' })).toBe('10.0.0.9');
  });

  it('splits X-Forwarded-For on commas and trims', () => {
    expect(forwardedFor(headers({ 'x-forwarded-for': ' a ,b,, c ' }))).toEqual(['a', 'b', 'c']);
    expect(forwardedFor(headers({}))).toEqual([]);
  });
});
