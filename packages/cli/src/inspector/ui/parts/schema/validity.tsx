import { useEffect, useRef, useState } from "preact/hooks";

export type FormControl = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * A control's validity: `problem` (what the browser does not check itself, checks.ts)
 * becomes its custom validity, so a form that breaks it is not submitted, and the
 * browser's message is shown once a submit was refused for it, until the control is valid
 * again.
 */
export function useValidity<T extends FormControl>(problem: string | undefined) {
  const ref = useRef<T>(null);
  const [shown, setShown] = useState<string>();
  useEffect(() => {
    const control = ref.current;
    if (!control) return;
    control.setCustomValidity(problem ?? "");
    if (shown !== undefined && control.validity.valid) setShown(undefined);
  });
  return {
    ref,
    onInvalid: (e: Event) => setShown((e.currentTarget as FormControl).validationMessage),
    message:
      shown === undefined ? null : (
        <p class="error field-error" role="alert">
          {shown}
        </p>
      ),
  };
}
