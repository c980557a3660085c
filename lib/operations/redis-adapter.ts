/**
 * Lets @upstash/ratelimit run on a self-hosted Redis through ioredis. The library only needs
 * evalsha and eval. Its scripts begin with a `#!lua flags=…` line that this Redis rejects, so
 * the adapter strips that line; it remembers which stripped script stands for the library's
 * hash, so after the first call every check is one EVALSHA round trip.
 */
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

export function stripShebang(script: string) {
  return (script.startsWith('#!') ? script.slice(script.indexOf('\n') + 1) : script);
}

export type TScriptRedis = {
  evalsha: (hash: string, keys: string[], args: unknown[]) => Promise<unknown>;
  eval: (script: string, keys: string[], args: unknown[]) => Promise<unknown>;
};

export function createIoredisAdapter(client: Redis): TScriptRedis {
  // library hash -> sha of the stripped script that Redis actually holds
  const known = new Map<string, string>();
  const argv = (args: unknown[]) => args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a)));
  return {
    evalsha: async (hash, keys, args) => {
      const stripped = known.get(hash);
      // Unknown hash: answer as Redis would, so the library falls back to eval().
      if (!stripped) throw new Error('NOSCRIPT No matching script (adapter)');
      return client.evalsha(stripped, keys.length, ...keys, ...argv(args));
    },
    eval: async (script, keys, args) => {
      const body = stripShebang(script);
      known.set(sha1(script), sha1(body));
      return client.eval(body, keys.length, ...keys, ...argv(args));
    },
  };
}
