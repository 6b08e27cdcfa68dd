export { buildCategoryTree, countNodes, pathTo, ROOT_NAME, type CategoryNode, type CategoryRow, type CategoryTree as CategoryTreeData } from './buildTree';
export { CategoryTree, ROW_HEIGHT, type CategoryTreeProps } from './CategoryTree';
export { useCategoryTree } from './useCategoryTree';
