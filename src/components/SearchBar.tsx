import { memo, useState, type FormEvent } from 'react';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import SearchIcon from '@mui/icons-material/Search';
import { Box, Button, MenuItem, TextField } from '@mui/material';
import { useNotify } from 'react-admin';

export interface AppliedSearch {
  field: string;
  value: string;
}

/** A field the search box may look in: one of a descriptor's `searchFields`, with its title. */
export interface SearchChoice {
  field: string;
  label: string;
  /** The longest text the choice takes (else 200). */
  maxLength?: number;
}

export const EMPTY_SEARCH_MESSAGE = '请输入搜索内容';

/** The search text to send, or null when it is empty (nothing is sent: 请输入搜索内容). */
export function searchText(value: string): string | null {
  const text = value.trim();
  return text === '' ? null : text;
}

/**
 * A field selector, the text, 搜索 and 重置. An empty text says
 * 请输入搜索内容 and sends nothing. Memoised (give it stable props): its MUI inputs are much of
 * a screen, which re-renders as react-admin settles the session and with every query change.
 */
export const SearchBar = memo(function SearchBar({
  choices,
  onSearch,
  onReset,
  initial,
}: {
  choices: readonly SearchChoice[];
  onSearch: (search: AppliedSearch) => void;
  onReset: () => void;
  /** The search in force when the bar first shows (a list's filters read from the address). */
  initial?: AppliedSearch | undefined;
}) {
  const notify = useNotify();
  const first = choices[0]?.field ?? '';
  const [field, setField] = useState(initial?.field ?? first);
  const [value, setValue] = useState(initial?.value ?? '');
  // A choice that left (another page type) falls back to the first one.
  const current = choices.some((c) => c.field === field) ? field : first;
  const maxLength = choices.find((c) => c.field === current)?.maxLength ?? 200;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = searchText(value);
    if (text === null) {
      notify(EMPTY_SEARCH_MESSAGE, { type: 'warning' });
      return;
    }
    onSearch({ field: current, value: text.slice(0, maxLength) });
  };

  const reset = () => {
    setField(first);
    setValue('');
    onReset();
  };

  return (
    <Box component="form" role="search" onSubmit={submit} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
      <TextField
        select
        size="small"
        variant="outlined"
        fullWidth={false}
        margin="none"
        label="搜索字段"
        value={current}
        onChange={(event) => setField(event.target.value)}
        sx={{ width: 130 }}
      >
        {choices.map((choice) => (
          <MenuItem key={choice.field} value={choice.field}>
            {choice.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        variant="outlined"
        fullWidth={false}
        margin="none"
        label="搜索内容"
        placeholder={EMPTY_SEARCH_MESSAGE}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        slotProps={{ htmlInput: { maxLength } }}
        sx={{ width: 280, maxWidth: '100%' }}
      />
      <Button type="submit" variant="contained" startIcon={<SearchIcon />}>
        搜索
      </Button>
      <Button type="button" variant="outlined" startIcon={<RestartAltIcon />} onClick={reset}>
        重置
      </Button>
    </Box>
  );
});
