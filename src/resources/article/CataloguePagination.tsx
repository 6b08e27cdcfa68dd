import { MenuItem, TextField } from '@mui/material';
import { useListPaginationContext } from 'react-admin';
import { ZhPagination } from '../../components/ZhPagination';
import { PAGE_SIZES } from './articleRules';

/**
 * The viewer's pager: total, the page size (8 … 50, remembered by the caller), previous, page
 * numbers, next.
 */
export function CataloguePagination({ onPerPageChange }: { onPerPageChange: (size: number) => void }) {
  const { perPage, setPerPage } = useListPaginationContext();
  return (
    <ZhPagination>
      <TextField
        select
        size="small"
        variant="outlined"
        fullWidth={false}
        margin="none"
        label="每页条数"
        value={perPage}
        onChange={(event) => {
          const size = Number(event.target.value);
          onPerPageChange(size);
          setPerPage(size);
        }}
        sx={{ minWidth: 110 }}
      >
        {PAGE_SIZES.map((size) => (
          <MenuItem key={size} value={size}>
            {size} 条/页
          </MenuItem>
        ))}
      </TextField>
    </ZhPagination>
  );
}
