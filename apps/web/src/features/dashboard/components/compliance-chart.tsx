import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TrendPoint } from "../trend-points";

/** Loaded on its own so the charting library stays out of every other page. */
export default function ComplianceChart({ points }: { points: TrendPoint[] }) {
  return (
    <div className="h-64 w-full" role="img" aria-label="Compliant and non-compliant resources per day">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" className="stroke-border" />
          <XAxis dataKey="day" tick={{ fontSize: 11 }} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Legend />
          <Area
            type="monotone"
            dataKey="compliant"
            name="Compliant"
            stackId="1"
            stroke="var(--color-success)"
            fill="var(--color-success)"
            fillOpacity={0.25}
          />
          <Area
            type="monotone"
            dataKey="nonCompliant"
            name="Non-compliant"
            stackId="1"
            stroke="var(--color-destructive)"
            fill="var(--color-destructive)"
            fillOpacity={0.25}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
