// The comment editor: ra-input-rich-text (TipTap) with TipTap's Placeholder. Heavy: load lazily.
import { Box } from '@mui/material';
import { Placeholder } from '@tiptap/extensions';
import {
  ClearButtons,
  DefaultEditorOptions,
  FormatButtons,
  LinkButtons,
  ListButtons,
  QuoteButtons,
  RichTextInput,
  RichTextInputToolbar,
} from 'ra-input-rich-text';

/** The placeholder of the comment editor. */
export const COMMENT_PLACEHOLDER = '请遵守互联网相关法律法规，严禁发布色情、暴力、反动等内容';

const editorOptions = {
  ...DefaultEditorOptions,
  extensions: [...(DefaultEditorOptions.extensions ?? []), Placeholder.configure({ placeholder: COMMENT_PLACEHOLDER })],
  editorProps: {
    // A multi-line text box to assistive technology, named and with its placeholder.
    attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': '评论内容', 'aria-placeholder': COMMENT_PLACEHOLDER },
  },
};

// A comment needs no headings, colours or remote images.
const toolbar = (
  <RichTextInputToolbar>
    <FormatButtons size="small" />
    <ListButtons size="small" />
    <LinkButtons size="small" />
    <QuoteButtons size="small" />
    <ClearButtons size="small" />
  </RichTextInputToolbar>
);

export default function CommentEditor({ source }: { source: string }) {
  return (
    <Box
      sx={{
        // TipTap marks the empty first paragraph; the text comes from its data-placeholder.
        '& .tiptap p.is-editor-empty:first-of-type::before': {
          content: 'attr(data-placeholder)',
          float: 'left',
          color: 'text.secondary',
          pointerEvents: 'none',
          height: 0,
        },
        '& .tiptap': { minHeight: 160 },
      }}
    >
      <RichTextInput source={source} label={false} editorOptions={editorOptions} toolbar={toolbar} helperText={false} />
    </Box>
  );
}
