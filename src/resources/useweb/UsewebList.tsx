import { Suspense, useState } from 'react';
import SortIcon from '@mui/icons-material/Sort';
import { Button, useRefresh } from 'react-admin';
import { usewebResource } from '../../../schemas/useweb';
import { useAccess } from '../../access/useMember';
import { SchemaList } from '../../components/SchemaList';
import { ListLoading } from '../../components/ListStates';
import { lazyPart } from '../../components/lazyPart';

// The drag-and-drop sort (dnd-kit) is fetched when needed, not with the list.
const UsewebSort = lazyPart('UsewebSort', () => import('./UsewebSort').then((m) => m.UsewebSort));

/** 常用网站管理: every website (All=1), 排序 (code a) and 新增. */
export default function UsewebList() {
  const [sorting, setSorting] = useState(false);
  const can = useAccess(usewebResource.resource);
  const refresh = useRefresh();

  if (sorting) {
    return (
      <Suspense fallback={<ListLoading />}>
        <UsewebSort
          onLeave={(saved) => {
            setSorting(false);
            if (saved) refresh();
          }}
        />
      </Suspense>
    );
  }
  return (
    <SchemaList
      descriptor={usewebResource}
      paged={false}
      actions={
        can('sort') && (
          <Button label="排序" onClick={() => setSorting(true)}>
            <SortIcon />
          </Button>
        )
      }
    />
  );
}
