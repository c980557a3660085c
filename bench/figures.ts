/** One printed figure of `npm run bench`: the project's number beside its same-run reference. */
export type TFigure = {
  name: string;
  project: number;
  reference: number;
  unit: string;
  higherIsBetter: boolean;
  /** What the reference is, when it is not the same SQL issued directly (the default). */
  referenceIs?: string;
};
