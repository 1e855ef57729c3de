// eval/ checks itself: see dataset-check.ts. js cases (a file per language, so the workers share them).
import { checkDataset } from './dataset-check.js'

checkDataset(['javascript', 'typescript'])
