package app;

import java.util.List;
import util.Box;
import util.Pair;

public class Shapes {
    static <M extends Measured> double total(Iterable<M> items) {
        double sum = 0;
        for (M item : items) {
            sum += item.size();
        }
        return sum;
    }

    public static void main(String[] args) {
        Box<String> name = new Box<>("disk");
        Box<Integer> len = name.map(String::length);
        Pair<String, Integer> p = new Pair<>(name.get(), len.get()).swap().swap();
        String best = Box.max("a", "b");
        System.out.println(p + best + total(List.of(new Disk())));
    }
}

interface Measured {
    double size();
}

class Disk implements Measured {
    public double size() {
        return 3.14;
    }
}
