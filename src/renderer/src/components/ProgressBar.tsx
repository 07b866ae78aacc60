export type Tone = 'active' | 'done' | 'warning' | 'stopped';

interface ProgressBarProps {
  /** The accessible name (a job's title, "Writing the ZIP"). */
  label: string;
  value: number;
  /** 0 when the total is not known yet: the bar then says so instead of a percentage. */
  max: number;
  /** What a screen reader says instead of a bare number, e.g. "45 of 120 videos". */
  valueText: string;
  tone?: Tone;
}

export function ProgressBar({ label, value, max, valueText, tone = 'active' }: ProgressBarProps) {
  const known = max > 0;
  const percent = known ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  return (
    <div
      className={`progress progress-${tone}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={known ? max : undefined}
      aria-valuenow={known ? value : undefined}
      aria-valuetext={valueText}
    >
      <div className="progress-fill" style={{ width: `${percent}%` }} />
    </div>
  );
}
