/** One line of a chart: its label, colour and daily values. */
export interface ChartSeries {
  label: string;
  /** One value per day; null where the day has none. */
  values: (number | null)[];
  /** A CSS colour, custom properties allowed. */
  color: string;
}
