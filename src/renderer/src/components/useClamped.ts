import { useEffect, useState, type RefObject } from 'react';

/** Whether a line-clamped element hides part of its text now (it follows the element's size). */
export function useClamped(ref: RefObject<HTMLElement | null>, text: string): boolean {
  const [clamped, setClamped] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const measure = () => setClamped(element.scrollHeight > element.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, text]);
  return clamped;
}
