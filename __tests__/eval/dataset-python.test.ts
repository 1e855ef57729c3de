// eval/ checks itself: see dataset-check.ts. python cases (a file per language, so the workers share them).
import { checkDataset } from './dataset-check.js'

checkDataset(['python'])
