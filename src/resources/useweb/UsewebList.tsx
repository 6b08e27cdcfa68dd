import { useState } from 'react';
import SortIcon from '@mui/icons-material/Sort';
import { Button, useRefresh } from 'react-admin';
import { usewebResource } from '../../../schemas/useweb';
import { useAccess } from '../../access/useMember';
import { SchemaInputs } from '../../components/SchemaInputs';
import { SchemaList } from '../../components/SchemaList';
import { UsewebSort } from './UsewebSort';

const inputs = <SchemaInputs descriptor={usewebResource} fields={['UwName', 'UwUrl', 'UwSort']} />;

/** 常用网站管理 (SPEC.md 2.5): every website (All=1), 排序 (code a) and 新增. */
export default function UsewebList() {
  const [sorting, setSorting] = useState(false);
  const can = useAccess(usewebResource.resource);
  const refresh = useRefresh();

  if (sorting) {
    return (
      <UsewebSort
        onLeave={(saved) => {
          setSorting(false);
          if (saved) refresh();
        }}
      />
    );
  }
  return (
    <SchemaList
      descriptor={usewebResource}
      title="常用网站管理"
      paged={false}
      form={{ inputs }}
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
