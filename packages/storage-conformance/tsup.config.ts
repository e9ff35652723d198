export { default } from '../../tsup.base';
