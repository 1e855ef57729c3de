use strict;
use warnings;

sub total {
    my @items = @_;
    open FH, '<', 'items.txt';
    return eval "1 + 2";
}
