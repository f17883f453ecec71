import { useCallback, useState } from "react";
import {
  durationHours,
  validWaiverRequest,
  type WaiverField,
  type WaiverRequestValues,
  waiverRequestErrors,
} from "./waiver-request-schema";

/**
 * Form state for the public waiver page: validates on every change, shows a field's error once the
 * field was touched. A form library would double the page's script for three fields.
 */
export function useWaiverRequestForm(initial: { policyKey: string } & Partial<WaiverRequestValues>) {
  const [values, setValues] = useState<WaiverRequestValues>(() => ({
    duration: durationHours.default,
    comment: "",
    scope: "",
    ...initial,
  }));
  // A form restored with a reason (after signing in, or a reload) shows its errors as it did before.
  const [touched, setTouched] = useState<Partial<Record<WaiverField, boolean>>>(() =>
    initial.comment ? { policyKey: true, duration: true, comment: true } : {},
  );
  const [submitting, setSubmitting] = useState(false);
  const errors = waiverRequestErrors(values);
  const setValue = useCallback(<F extends WaiverField>(field: F, value: WaiverRequestValues[F]) => {
    setValues((current) => ({ ...current, [field]: value }));
  }, []);

  return {
    values,
    errors,
    touched,
    submitting,
    isValid: Object.keys(errors).length === 0,
    setValue,
    touch(field: WaiverField) {
      setTouched((current) => (current[field] ? current : { ...current, [field]: true }));
    },
    reset() {
      setValues({ policyKey: "", duration: durationHours.default, comment: "", scope: "" });
      setTouched({});
    },
    async submit(onValid: (values: WaiverRequestValues) => Promise<void>) {
      setTouched({ policyKey: true, duration: true, comment: true });
      const request = validWaiverRequest(values);
      if (!request) return;
      setSubmitting(true);
      try {
        await onValid(request);
      } finally {
        setSubmitting(false);
      }
    },
  };
}

export type WaiverRequestForm = ReturnType<typeof useWaiverRequestForm>;
