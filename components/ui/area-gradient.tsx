/** The fade under a chart's line: the line's colour at `opacity` at the top, clear at the bottom. */
export const AreaGradient = ({ id, color, opacity }: { id: string; color: string; opacity: number }) => (
  <defs>
    <linearGradient id={id} x1="0" x2="0" y1="0" y2="1">
      <stop offset="0%" stopColor={color} stopOpacity={opacity} />
      <stop offset="100%" stopColor={color} stopOpacity="0" />
    </linearGradient>
  </defs>
);
