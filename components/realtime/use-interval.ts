import { useEffect, useRef } from 'react';

/** Calls `callback` every `ms` milliseconds; `null` stops it. The latest callback always runs. */
export const useInterval = (callback: () => void, ms: number | null) => {
  const ref = useRef(callback);
  useEffect(() => {
    ref.current = callback;
  });
  useEffect(() => {
    if (ms === null) return;
    const id = setInterval(() => ref.current(), ms);
    return () => clearInterval(id);
  }, [ms]);
};
