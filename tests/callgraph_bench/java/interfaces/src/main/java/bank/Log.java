package bank;

final class Log {
    static void write(String line) {
        System.out.println(line);
    }
}
