<?php
function total($items) {
    $sum = 0;
    foreach ($items as $item) { $sum += $item; }
    // a comment that runs on past the one hundred and twenty characters a line of PSR-12 may hold, so phpcs gives it a warning of its own
    return $sum;
}
