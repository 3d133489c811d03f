import type * as React from 'react';
import { Input } from './input';

/** A search box: each keystroke handed on as the text typed (the machine debounces). Wide on a wide screen. */
export function SearchInput({
  onSearch,
  className = 'w-full sm:w-80',
  ...props
}: Omit<React.ComponentProps<typeof Input>, 'type' | 'onChange'> & { onSearch: (text: string) => void }) {
  return <Input type="search" className={className} onChange={(e) => onSearch(e.currentTarget.value)} {...props} />;
}
